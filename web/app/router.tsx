import { Navigate, Route, Routes } from 'react-router';
import { RequireAuth } from '../features/auth/components/require-auth';
import { LandingPage } from '../features/landing/landing-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { lazyScreen } from './lazy-screen';
import { RootLayout } from './root-layout';

// Declarative routes rather than createBrowserRouter: the data router adds ~17 kB gzip to the
// landing download, and nothing here uses loaders or actions. Every screen but the landing is a
// chunk of its own, fetched when first visited (RootLayout holds the Suspense boundary and shows
// the teal bar while one downloads).
const AuthPage = lazyScreen(() => import('../features/auth/auth-page').then((m) => m.AuthPage));
const DashboardPage = lazyScreen(() => import('../features/links/dashboard-page').then((m) => m.DashboardPage));
const LinkDetailPage = lazyScreen(() => import('../features/links/link-detail-page').then((m) => m.LinkDetailPage));
const TokensPage = lazyScreen(() => import('../features/tokens/tokens-page').then((m) => m.TokensPage));
const DomainsPage = lazyScreen(() => import('../features/domains/domains-page').then((m) => m.DomainsPage));
const WebhooksPage = lazyScreen(() => import('../features/webhooks/webhooks-page').then((m) => m.WebhooksPage));
const AccountPage = lazyScreen(() => import('../features/account/account-page').then((m) => m.AccountPage));
const ForgotPasswordPage = lazyScreen(() => import('../features/account/forgot-password-page').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyScreen(() => import('../features/account/reset-password-page').then((m) => m.ResetPasswordPage));
const VerifyEmailPage = lazyScreen(() => import('../features/account/verify-email-page').then((m) => m.VerifyEmailPage));
const AdminLayout = lazyScreen(() => import('../features/admin/admin-layout').then((m) => m.AdminLayout));
const AdminUsers = lazyScreen(() => import('../features/admin/users-page').then((m) => m.UsersPage));
const AdminLinks = lazyScreen(() => import('../features/admin/links-page').then((m) => m.LinksPage));
const AdminWorkspaces = lazyScreen(() => import('../features/admin/workspaces-page').then((m) => m.WorkspacesPage));
const AdminDomains = lazyScreen(() => import('../features/admin/domains-page').then((m) => m.DomainsPage));
const AdminReports = lazyScreen(() => import('../features/admin/reports-page').then((m) => m.ReportsPage));
const AdminSettings = lazyScreen(() => import('../features/admin/settings-page').then((m) => m.SettingsPage));
const AdminAudit = lazyScreen(() => import('../features/admin/audit-page').then((m) => m.AuditPage));
const ReportPage = lazyScreen(() => import('../features/admin/report-page').then((m) => m.ReportPage));
const WorkspaceRoutes = lazyScreen(() => import('../features/workspaces/workspace-routes').then((m) => m.WorkspaceRoutes));
const InvitationPage = lazyScreen(() => import('../features/workspaces/invitation-page').then((m) => m.InvitationPage));
const RedirectPage = lazyScreen(() => import('../features/redirect/redirect-page').then((m) => m.RedirectPage));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path="/" element={<LandingPage />} />
        <Route path="/auth" element={<AuthPage />} />
        <Route path="/auth/recuperar" element={<ForgotPasswordPage />} />
        <Route path="/auth/restablecer" element={<ResetPasswordPage />} />
        <Route path="/auth/verificar" element={<VerifyEmailPage />} />
        <Route element={<RequireAuth />}>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/link/:id" element={<LinkDetailPage />} />
          {/* A workspace's screens: the address names it, so a link sent to a teammate opens where it belongs. */}
          <Route path="/w/:slug/*" element={<WorkspaceRoutes />} />
          <Route path="/cuenta/tokens" element={<TokensPage />} />
          <Route path="/cuenta/dominios" element={<DomainsPage />} />
          <Route path="/cuenta/webhooks" element={<WebhooksPage />} />
          <Route path="/cuenta" element={<AccountPage />} />
          <Route path="/admin" element={<AdminLayout />}>
            <Route index element={<Navigate to="/admin/usuarios" replace />} />
            <Route path="usuarios" element={<AdminUsers />} />
            <Route path="links" element={<AdminLinks />} />
            <Route path="espacios" element={<AdminWorkspaces />} />
            <Route path="dominios" element={<AdminDomains />} />
            <Route path="denuncias" element={<AdminReports />} />
            <Route path="ajustes" element={<AdminSettings />} />
            <Route path="registro" element={<AdminAudit />} />
          </Route>
        </Route>
        <Route path="/invitacion/:token" element={<InvitationPage />} />
        <Route path="/denunciar" element={<ReportPage />} />
        <Route path="/:code" element={<RedirectPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
