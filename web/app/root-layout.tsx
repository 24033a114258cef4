import { Link, Outlet } from 'react-router';

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-slate-800/80 bg-slate-950/80 backdrop-blur">
        <nav aria-label="Principal" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Link to="/" className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Corto</span>
          </Link>
        </nav>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}
