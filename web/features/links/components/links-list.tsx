import type { Link } from '@common/links/link-schemas';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { LinkCard } from './link-card';

type LinksListProps = {
  links: Link[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** The ids selected, and how a card's checkbox changes them. */
  selected?: ReadonlyMap<number, Link>;
  onSelectedChange?: (link: Link, selected: boolean) => void;
};

// Start loading the next page this many cards before the end of what is loaded.
const PREFETCH_DISTANCE = 10;

/**
 * The link cards, virtualised against the window's scroll: only the cards near the viewport are in
 * the page, so 10,000 links cost what a dozen do; further pages load as the end comes near.
 */
export function LinksList({ links, hasNextPage, isFetchingNextPage, fetchNextPage, selected, onSelectedChange }: LinksListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    // Where the list starts in the document: the virtualiser measures the window's scroll from there.
    // Content above it (totals, an error) can change height, so it is measured again on every resize.
    const measure = () => {
      const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
      setScrollMargin((previous) => (Math.abs(previous - top) > 1 ? top : previous));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: links.length,
    estimateSize: () => 140,
    gap: 12,
    overscan: 6,
    scrollMargin,
    getItemKey: (index) => links[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= links.length - PREFETCH_DISTANCE) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastShown, links.length, fetchNextPage]);

  return (
    <div>
      <ul ref={listRef} aria-label="Links" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const link = links[item.index];
          if (!link) return null;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full"
              style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <LinkCard
                link={link}
                selection={
                  onSelectedChange && { selected: selected?.has(link.id) ?? false, onChange: (checked) => onSelectedChange(link, checked) }
                }
              />
            </li>
          );
        })}
      </ul>
      {isFetchingNextPage && (
        <p className="flex items-center justify-center gap-2 py-4 text-sm text-slate-300">
          <Spinner /> Cargando más links...
        </p>
      )}
    </div>
  );
}
