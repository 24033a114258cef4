import { Route, Routes } from 'react-router';
import { lazyScreen } from '../../app/lazy-screen';
import { WorkspaceLayout } from './workspace-layout';

// /w/{slug}/...: one entry in the app's router (its list of chunks weighs on the landing page's
// download), the workspace's own screens declared here, each fetched when first visited.
const DashboardPage = lazyScreen(() => import('../links/dashboard-page').then((m) => m.DashboardPage));
const LinkDetailPage = lazyScreen(() => import('../links/link-detail-page').then((m) => m.LinkDetailPage));
const TokensPage = lazyScreen(() => import('../tokens/tokens-page').then((m) => m.TokensPage));
const MembersPage = lazyScreen(() => import('./members-page').then((m) => m.MembersPage));
const ActivityPage = lazyScreen(() => import('./activity-page').then((m) => m.ActivityPage));
const DomainsPage = lazyScreen(() => import('../domains/domains-page').then((m) => m.DomainsPage));
const WebhooksPage = lazyScreen(() => import('../webhooks/webhooks-page').then((m) => m.WebhooksPage));

export function WorkspaceRoutes() {
  return (
    <Routes>
      <Route element={<WorkspaceLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="link/:id" element={<LinkDetailPage />} />
        <Route path="miembros" element={<MembersPage />} />
        <Route path="actividad" element={<ActivityPage />} />
        <Route path="tokens" element={<TokensPage />} />
        <Route path="dominios" element={<DomainsPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
      </Route>
    </Routes>
  );
}
