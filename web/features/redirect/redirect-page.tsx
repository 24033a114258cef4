import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { usePageTitle } from '../../app/use-page-title';
import { BarLoader } from '../../components/ui/bar-loader';
import { NotFoundPage } from '../not-found/not-found-page';

/**
 * The server answers GET /{code} itself with a 302. This screen only appears when the app
 * navigates to a short address: it hands the visit to the server with a full page load. On a
 * first document load the server served the app shell only because the code is unknown, so the
 * 404 page shows instead (handing it back would loop).
 */
export function RedirectPage() {
  const { code = '' } = useParams();
  const location = useLocation();
  const arrivedInApp = location.key !== 'default';

  useEffect(() => {
    if (arrivedInApp) window.location.assign(`/${encodeURIComponent(code)}`);
  }, [arrivedInApp, code]);

  if (!arrivedInApp) return <NotFoundPage />;
  return <Redirecting />;
}

function Redirecting() {
  usePageTitle('Redirigiendo');
  return (
    <div className="flex flex-col items-center gap-6 py-16">
      <BarLoader label="Redirigiendo" className="rounded-full" />
      {/* The screen's one heading (axe: page-has-heading-one). */}
      <h1 className="text-lg font-medium text-slate-200" aria-live="polite">
        Redirecting...
      </h1>
    </div>
  );
}
