import { usePageTitle } from '../../app/use-page-title';
import { Faq } from './faq';
import { ShortenForm } from './shorten-form';

export function LandingPage() {
  usePageTitle('');
  return (
    <div className="flex flex-col gap-16 sm:gap-24">
      <section className="flex flex-col items-center text-center">
        <p className="mb-5 rounded-full border border-teal-400/30 bg-teal-400/10 px-3 py-1 text-xs font-semibold tracking-wide text-teal-200 uppercase">
          Enlaces cortos · QR · Estadísticas
        </p>
        <h1 className="max-w-4xl text-4xl leading-tight font-extrabold tracking-tight text-balance text-white sm:text-6xl">
          El único shortener de Links que vas a necesitar
        </h1>
        <p className="mt-5 max-w-2xl text-base leading-relaxed text-pretty text-slate-300 sm:text-lg">
          Convierte cualquier dirección larga en un enlace corto y fácil de compartir, con su código QR y el
          detalle de cada clic.
        </p>
        <ShortenForm />
      </section>
      <img
        src="/banner.svg"
        alt="Una dirección larga se convierte en un enlace corto, con su código QR y sus estadísticas de clics"
        width={1200}
        height={460}
        className="h-auto w-full rounded-2xl border border-slate-800 shadow-2xl shadow-teal-950/40"
      />
      <Faq />
    </div>
  );
}
