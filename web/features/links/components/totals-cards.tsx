import { formatNumber } from '../../../lib/format';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

/** The dashboard's two counts, computed by the server over all of the user's links. */
export function TotalsCards({ totals }: { totals: { links: number; clicks: number } | undefined }) {
  const cards = [
    { title: 'Total de links creados', value: totals?.links },
    { title: 'Total de clics', value: totals?.clicks },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {cards.map((card) => (
        <Card key={card.title}>
          <CardHeader className="pb-2 sm:pb-2">
            <CardTitle as="h2" className="text-base font-medium text-slate-300">
              {card.title}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-3xl font-bold tabular-nums">{card.value === undefined ? '–' : formatNumber(card.value)}</p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
