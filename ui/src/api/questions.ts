import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Question, QuestionKind } from '../../../core/types/api';
import { apiRequest, getJson } from './client';

export type { Question, QuestionKind } from '../../../core/types/api';

/** The kinds as the admin reads them (what the widget does when the question is chosen). */
export const KIND_LABELS: Record<QuestionKind, string> = {
    answer: 'Show the answer',
    loyalty_check: 'Loyalty points check (phone + code)',
    live_support: 'Connect to live support'
};

export interface QuestionInput {
    question: string;
    answer: string;
    kind?: QuestionKind;
    isActive?: boolean;
    sortOrder?: number;
    /** The language it is written in (issue 27); null: the store's default language. */
    lang?: string | null;
}

export const QUESTIONS_KEY = ['questions'] as const;

/** The five built-in defaults (SPEC §9), shown when loading fails: the server's and the widget's own list. */
export { DEFAULT_QUESTIONS } from '../../../core/shared/default-questions';

export function useQuestions() {
    return useQuery({ queryKey: QUESTIONS_KEY, queryFn: () => getJson<Question[]>('/api/questions') });
}

function useInvalidate() {
    const client = useQueryClient();
    return () => client.invalidateQueries({ queryKey: QUESTIONS_KEY });
}

export function useCreateQuestion() {
    const invalidate = useInvalidate();
    return useMutation({
        mutationFn: (input: QuestionInput) => apiRequest<Question>('/api/questions', { method: 'POST', body: input }),
        onSuccess: invalidate
    });
}

export function useUpdateQuestion() {
    const invalidate = useInvalidate();
    return useMutation({
        mutationFn: ({ id, ...input }: Partial<QuestionInput> & { id: number }) => apiRequest<Question>(`/api/questions/${id}`, { method: 'PUT', body: input }),
        onSuccess: invalidate
    });
}

export function useDeleteQuestion() {
    const invalidate = useInvalidate();
    return useMutation({
        mutationFn: (id: number) => apiRequest<void>(`/api/questions/${id}`, { method: 'DELETE' }),
        onSuccess: invalidate
    });
}

/** Saves a new order (the spec keeps it local; we persist it). */
export function useSaveOrder() {
    const client = useQueryClient();
    return useMutation({
        mutationFn: (ids: number[]) => apiRequest<Question[]>('/api/questions/order', { method: 'PUT', body: { ids } }),
        onMutate: (ids) => {
            const previous = client.getQueryData<Question[]>(QUESTIONS_KEY);
            if (previous) {
                const byId = new Map(previous.map((q) => [q.id, q]));
                client.setQueryData(QUESTIONS_KEY, ids.map((id, i) => ({ ...byId.get(id)!, sortOrder: i + 1 })));
            }
            return { previous };
        },
        onError: (_err, _ids, context) => {
            if (context?.previous) {
                client.setQueryData(QUESTIONS_KEY, context.previous);
            }
        },
        onSuccess: (saved) => client.setQueryData(QUESTIONS_KEY, saved)
    });
}
