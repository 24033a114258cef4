import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

/** One part of the account page: a card with its heading (a landmark's label for screen readers). */
export function Section({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Card>
        <CardHeader>
          <CardTitle id={id}>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </section>
  );
}

/** The line under a form saying what was done ('Guardado'), read out when it appears. */
export function Done({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="text-sm text-teal-300">
      {children}
    </p>
  );
}
