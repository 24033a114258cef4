import { usePageTitle } from '../../app/use-page-title';

export function LandingPage() {
  usePageTitle('');
  return (
    <section className="py-12 text-center">
      <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">
        El único shortener de Links que vas a necesitar
      </h1>
    </section>
  );
}
