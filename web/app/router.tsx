import { createBrowserRouter } from 'react-router';
import { LandingPage } from '../features/landing/landing-page';
import { RootLayout } from './root-layout';

// The landing page is in the first download; every other screen is fetched when first visited.
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/auth', lazy: async () => ({ Component: (await import('../features/auth/auth-page')).AuthPage }) },
      {
        path: '/dashboard',
        lazy: async () => ({ Component: (await import('../features/links/dashboard-page')).DashboardPage }),
      },
      {
        path: '/link/:id',
        lazy: async () => ({ Component: (await import('../features/links/link-detail-page')).LinkDetailPage }),
      },
      {
        path: '/:code',
        lazy: async () => ({ Component: (await import('../features/redirect/redirect-page')).RedirectPage }),
      },
    ],
  },
]);
