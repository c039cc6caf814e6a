import './icons';
import React from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import './styles.css';
import { App } from './App';
import { adminLanguage, I18nProvider, loadLanguage } from './i18n';

/** SPEC §9: never stale, no refetch on window focus, no polling by default, no retries. */
export const queryClient = new QueryClient({
    defaultOptions: {
        queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false },
        mutations: { retry: false }
    }
});

// The agent's language is fetched before the first render (no English flash); English needs nothing.
const lang = adminLanguage();
void loadLanguage(lang).then(() => createRoot(document.getElementById('root')!).render(
    <React.StrictMode>
        <QueryClientProvider client={queryClient}>
            <BlueprintProvider>
                <I18nProvider lang={lang}>
                    <BrowserRouter>
                        <App />
                    </BrowserRouter>
                </I18nProvider>
            </BlueprintProvider>
        </QueryClientProvider>
    </React.StrictMode>
));
