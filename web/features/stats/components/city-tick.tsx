import { Text } from 'recharts';
import { AXIS_COLOR } from './chart-theme';

const LINE_HEIGHT = 14;

/** Room the labels take below the axis: three lines on a wide screen; two rows of two on a phone. */
export const cityTickHeight = (staggered: boolean) => (staggered ? 4 * LINE_HEIGHT + 14 : 3 * LINE_HEIGHT + 10);

/** What recharts hands a custom tick (the part of it this one reads). */
export interface TickProps {
  x: number | string;
  y: number | string;
  /** The whole axis's width. */
  width?: number | string;
  index: number;
  visibleTicksCount: number;
  payload: { value: unknown };
}

/**
 * A city's name under its point, wrapped to the room each city has, so names never run into
 * each other or get cut at the chart's edge. On a phone the labels take turns on two rows, which
 * gives each one twice the width. A name too long even so ends in '…' (the tooltip, the table and
 * the label's own title on hover have it whole).
 */
export function CityTick({ x, y, width, index, visibleTicksCount, payload, staggered }: TickProps & { staggered: boolean }) {
  const name = String(payload.value);
  const band = Number(width) / Math.max(1, visibleTicksCount);
  const maxLines = staggered ? 2 : 3;
  const lowerRow = staggered && index % 2 === 1;
  return (
    <g>
      <title>{name}</title>
      <Text
        x={Number(x)}
        y={Number(y) + 4 + (lowerRow ? maxLines * LINE_HEIGHT + 4 : 0)}
        width={Math.max(40, (staggered ? 2 * band : band) - 8)}
        maxLines={maxLines}
        lineHeight={LINE_HEIGHT}
        textAnchor="middle"
        verticalAnchor="start"
        fill={AXIS_COLOR}
        style={{ fontSize: 12 }}
      >
        {name}
      </Text>
    </g>
  );
}
