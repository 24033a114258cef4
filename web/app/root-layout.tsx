import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { BarLoader } from '../components/ui/bar-loader';
import { Toaster } from '../components/ui/toaster';
import { UserMenu } from '../features/auth/components/user-menu';
import { useScreenLoading } from './lazy-screen';
import { ScreenErrorBoundary } from './screen-error-boundary';

export function RootLayout() {
  const screenLoading = useScreenLoading();
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      {/* While a screen's code downloads, the old screen may stay up (a transition): the bar says something is coming. */}
      {screenLoading && <BarLoader label="Cargando página" className="fixed inset-x-0 top-0 z-50" />}
      <a
        href="#contenido"
        className="sr-only z-50 rounded-lg bg-teal-400 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Saltar al contenido
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-800/80 bg-slate-950/85 backdrop-blur">
        <nav
          aria-label="Principal"
          className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6"
        >
          <Link
            to="/"
            className="flex items-center gap-2.5 rounded-lg text-lg font-bold tracking-tight text-white"
          >
            <img src="/favicon.svg" alt="" width={32} height={32} />
            <span>Corto</span>
          </Link>
          <div className="flex items-center gap-3">
            <UserMenu />
          </div>
        </nav>
      </header>
      <main id="contenido" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-12">
        {/* Screens other than the landing are fetched on first visit; the bar above shows meanwhile. */}
        <ScreenErrorBoundary pathname={pathname}>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      </main>
      <footer className="border-t border-slate-800/80 px-4 py-6 text-center text-sm text-slate-400">
        Corto · Enlaces cortos, QR y estadísticas
      </footer>
      <Toaster />
    </div>
  );
}
