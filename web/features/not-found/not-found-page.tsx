import { Link } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { buttonVariants } from '../../components/ui/button';

/**
 * Shown for an unknown route and for a short address that does not exist. It offers no «Denunciar
 * este link»: there is no link to report (the visitor pages of real links carry that offer).
 */
export function NotFoundPage() {
  usePageTitle('Página no encontrada');
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center py-12 text-center sm:py-20">
      <p className="font-mono text-7xl font-black tracking-tighter text-teal-400 sm:text-8xl" aria-hidden>
        404
      </p>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-white sm:text-4xl">Página no encontrada</h1>
      <p className="mt-4 text-base leading-relaxed text-slate-300 sm:text-lg">
        Este enlace no existe o ya no está disponible. Comprueba que la dirección esté bien escrita o vuelve al
        inicio para acortar un enlace nuevo.
      </p>
      <Link to="/" className={buttonVariants({ size: 'lg', className: 'mt-8' })}>
        Volver al inicio
      </Link>
    </section>
  );
}
