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
const AiManagement = lazy(() => import('./pages/AiManagement'));
const AiTest = lazy(() => import('./pages/AiTest'));

/** The routes of SPEC §2. */
export function App() {
    return (
        <Suspense fallback={<div className="lc-center"><Spinner /></div>}>
            <Routes>
                <Route path="/" element={<Placeholder title="Demo storefront" />} />
                <Route path="/admin-access-2024" element={<AdminLogin />} />
                <Route path="/admin-login" element={<AdminLogin />} />
                <Route path="/admin-dashboard" element={<AdminGuard><AdminDashboard /></AdminGuard>} />
                <Route path="/analytics" element={<AdminGuard redirect><Placeholder title="Analytics" /></AdminGuard>} />
                <Route path="/test" element={<AdminGuard><Placeholder title="System tests" /></AdminGuard>} />
                <Route path="/test-dashboard" element={<AdminGuard><Placeholder title="System tests" /></AdminGuard>} />
                <Route path="/admin-chat" element={<AdminGuard redirect><AdminChat /></AdminGuard>} />
                <Route path="/admin-questions" element={<AdminGuard><AdminQuestions /></AdminGuard>} />
                <Route path="/ai-management" element={<AdminGuard><AiManagement /></AdminGuard>} />
                <Route path="/ai-test" element={<AdminGuard><AiTest /></AdminGuard>} />
                <Route path="/super-admin-login" element={<SuperAdminLogin />} />
                <Route path="/super-admin" element={<SuperAdmin />} />
                <Route path="/org-login" element={<OrgLogin />} />
                <Route path="/org-dashboard" element={<OrgDashboard />} />
                <Route path="*" element={<NotFound />} />
            </Routes>
        </Suspense>
    );
}
