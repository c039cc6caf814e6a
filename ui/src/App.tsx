import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import NotFound from './pages/NotFound';
import Placeholder from './pages/Placeholder';
import { AdminGuard } from './auth/AdminGuard';

// Screens are loaded on demand so the initial bundle stays small (DESIGN §8).
const AdminLogin = lazy(() => import('./pages/AdminLogin'));
const AdminDashboard = lazy(() => import('./pages/AdminDashboard'));
const SuperAdminLogin = lazy(() => import('./pages/SuperAdminLogin'));
const SuperAdmin = lazy(() => import('./pages/SuperAdmin'));
const OrgLogin = lazy(() => import('./pages/OrgLogin'));
const OrgDashboard = lazy(() => import('./pages/OrgDashboard'));
const AdminQuestions = lazy(() => import('./pages/AdminQuestions'));
const AdminChat = lazy(() => import('./pages/AdminChat'));
const AdminLayout = lazy(() => import('./layout/AdminLayout'));
const SystemTest = lazy(() => import('./pages/SystemTest'));
const AiManagement = lazy(() => import('./pages/AiManagement'));
const AiTest = lazy(() => import('./pages/AiTest'));
const SupportHours = lazy(() => import('./pages/SupportHours'));
// The analytics screen and its charts load only on /analytics (DESIGN §9).
const AnalyticsPage = lazy(() => import('./pages/analytics/AnalyticsPage'));
const Privacy = lazy(() => import('./pages/Privacy'));

/** The routes of SPEC §2. */
export function App() {
    return (
        <Suspense fallback={<div className="lc-center"><Spinner /></div>}>
            <Routes>
                <Route path="/" element={<Placeholder title="placeholder.storefront" />} />
                <Route path="/admin-access-2024" element={<AdminLogin />} />
                <Route path="/admin-login" element={<AdminLogin />} />
                {/* Staff pages share one shell (AdminLayout); the guard shows the login form in place of the page… */}
                <Route element={<AdminGuard><AdminLayout /></AdminGuard>}>
                    <Route path="/admin-dashboard" element={<AdminDashboard />} />
                    <Route path="/test" element={<SystemTest />} />
                    <Route path="/test-dashboard" element={<SystemTest />} />
                    <Route path="/admin-questions" element={<AdminQuestions />} />
                    <Route path="/ai-management" element={<AiManagement />} />
                    <Route path="/ai-test" element={<AiTest />} />
                    <Route path="/privacy" element={<Privacy />} />
                </Route>
                {/* …or, for these (SPEC §2), sends the visitor to /admin-login. */}
                <Route element={<AdminGuard redirect><AdminLayout /></AdminGuard>}>
                    <Route path="/analytics" element={<AnalyticsPage />} />
                    <Route path="/admin-chat" element={<AdminChat />} />
                    <Route path="/admin-chat/messages" element={<AdminChat view="messages" />} />
                    <Route path="/admin-chat/history" element={<AdminChat view="history" />} />
                    <Route path="/admin-chat/hours" element={<SupportHours />} />
                    <Route path="/admin-chat/team" element={<AdminChat view="team" />} />
                </Route>
                <Route path="/super-admin-login" element={<SuperAdminLogin />} />
                <Route path="/super-admin" element={<SuperAdmin />} />
                <Route path="/org-login" element={<OrgLogin />} />
                <Route path="/org-dashboard" element={<OrgDashboard />} />
                <Route path="*" element={<NotFound />} />
            </Routes>
        </Suspense>
    );
}
