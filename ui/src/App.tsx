import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import NotFound from './pages/NotFound';
import Placeholder from './pages/Placeholder';

/** The routes of SPEC §2. Screens are loaded on demand so the initial bundle stays small. */
export function App() {
    return (
        <Suspense fallback={<div className="lc-center"><Spinner /></div>}>
            <Routes>
                <Route path="/" element={<Placeholder title="Demo storefront" />} />
                <Route path="/admin-access-2024" element={<Placeholder title="Admin login" />} />
                <Route path="/admin-login" element={<Placeholder title="Admin login" />} />
                <Route path="/admin-dashboard" element={<Placeholder title="Admin dashboard" />} />
                <Route path="/analytics" element={<Placeholder title="Analytics" />} />
                <Route path="/test" element={<Placeholder title="System tests" />} />
                <Route path="/test-dashboard" element={<Placeholder title="System tests" />} />
                <Route path="/admin-chat" element={<Placeholder title="Live chat" />} />
                <Route path="/admin-questions" element={<Placeholder title="Pre-made questions" />} />
                <Route path="/ai-management" element={<Placeholder title="AI management" />} />
                <Route path="/super-admin-login" element={<Placeholder title="Super admin login" />} />
                <Route path="/super-admin" element={<Placeholder title="Super admin" />} />
                <Route path="/org-login" element={<Placeholder title="Organization login" />} />
                <Route path="/org-dashboard" element={<Placeholder title="Organization dashboard" />} />
                <Route path="*" element={<NotFound />} />
            </Routes>
        </Suspense>
    );
}

