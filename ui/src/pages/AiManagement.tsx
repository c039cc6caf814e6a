import { useCallback, useRef, useState } from 'react';
import {
    Alert, Button, Callout, Card, Checkbox, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, HTMLTable, InputGroup, Intent,
    OverlayToaster, Spinner, Switch, Tab, Tabs, Tag, TextArea
} from '@blueprintjs/core';
import { ApiError } from '../api/client';
import {
    AiChatRecord, AiSourceUsage, KnowledgeEntry, useChatHistory, useCreateKnowledge, useDeleteKnowledge, useImportKnowledge, useKnowledge,
    useKnowledgeUsage, useMarkResolved, useResolveMany, useUnresolvedChats, useUpdateKnowledge
} from '../api/ai';
import type { AiTriage } from '../api/ai';
import { AdminTextKey, useT } from '../i18n';
import '../features/ai/ai.css';
import { AppDialog, EmptyState } from '../components/a11y';
import { languageName, useStoreLanguages } from '../features/widget/WidgetLanguagesCard';

/** SPEC §9: the content preview is cut at 300 characters. */
export const PREVIEW_LENGTH = 300;

type Toast = (title: string, message: string, intent: Intent) => void;

function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

export function preview(text: string): string {
    return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}

const FALLBACK_LABELS: Record<string, string> = {
    live_chat: 'Live chat',
    offer_live_chat: 'Offered a person',
    leave_message: 'Offered a message',
    questions: 'Questions',
    verify_phone: 'Verify phone'
};

/** An answer the agent could not give from the knowledge (it abstained, offered a person or a message, or handed over). */
export function unanswered(record: AiChatRecord): boolean {
    return !record.answeredFrom && (record.triageReason === 'abstained' || ['offer_live_chat', 'leave_message', 'questions', 'live_chat'].includes(record.fallbackAction ?? ''));
}

/** Add / edit a knowledge entry: title and content required (SPEC §5). */
function EntryDialog({ initial, prefill, onClose, toast }: { initial: KnowledgeEntry | null; prefill?: string; onClose(): void; toast: Toast }) {
    const t = useT();
    const [title, setTitle] = useState(initial?.title ?? prefill?.slice(0, 300) ?? '');
    const [content, setContent] = useState(initial?.content ?? '');
    const [isActive, setActive] = useState(initial?.isActive ?? true);
    const [lang, setLang] = useState(initial?.lang ?? '');
    const languages = useStoreLanguages();
    const create = useCreateKnowledge();
    const update = useUpdateKnowledge();
    const pending = create.isPending || update.isPending;
    const canSave = title.trim() !== '' && content.trim() !== '' && !pending;
    const save = () => {
        const input = { title: title.trim(), content: content.trim(), isActive, lang: lang || null };
        if (initial) {
            update.mutate({ id: initial.id, ...input }, {
                onSuccess: () => {
                    toast('Entry updated', `"${input.title}" was saved.`, Intent.SUCCESS);
                    onClose();
                },
                onError: (err) => toast('Failed to update knowledge entry', errorText(err), Intent.DANGER)
            });
        }
        else {
            create.mutate(input, {
                onSuccess: () => {
                    toast('Entry created', `"${input.title}" was added to the knowledge base.`, Intent.SUCCESS);
                    onClose();
                },
                onError: (err) => toast('Failed to create knowledge entry', errorText(err), Intent.DANGER)
            });
        }
    };
    return (
        <AppDialog isOpen onClose={onClose} title={initial ? 'Edit knowledge entry' : prefill ? t('ai.learn.addTitle', { question: preview(prefill).slice(0, 80) }) : 'Add knowledge entry'}>
            <DialogBody>
                {prefill && <Callout intent={Intent.PRIMARY} icon="learning">{t('ai.learn.prefilled')}</Callout>}
                <FormGroup label="Title" labelFor="kb-title" labelInfo="(required)">
                    <InputGroup id="kb-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} autoFocus={!prefill} />
                </FormGroup>
                <FormGroup label="Content" labelFor="kb-content" labelInfo="(required)">
                    <TextArea id="kb-content" value={content} onChange={(e) => setContent(e.target.value)} fill rows={8} maxLength={10000} autoFocus={!!prefill} />
                </FormGroup>
                <FormGroup label={t('ai.kb.language')} labelFor="kb-lang" helperText={t('ai.kb.languageHelp')}>
                    <HTMLSelect id="kb-lang" value={lang} fill onChange={(e) => setLang(e.currentTarget.value)}
                        options={[{ value: '', label: t('ai.kb.languageDefault', { name: languageName(languages.data?.default ?? 'en') }) },
                            ...(languages.data?.shipped ?? []).map((l) => ({ value: l, label: languageName(l) }))]} />
                </FormGroup>
                <Switch label="Active" checked={isActive} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} />
            </DialogBody>
            <DialogFooter actions={<>
                <Button text="Cancel" onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={pending ? 'Saving...' : 'Save'} disabled={!canSave} onClick={save} />
            </>} />
        </AppDialog>
    );
}

/** Many entries from a Markdown file (one per heading) or a CSV file (title,content[,isActive]). */
function ImportDialog({ onClose, toast }: { onClose(): void; toast: Toast }) {
    const [format, setFormat] = useState<'markdown' | 'csv'>('markdown');
    const [text, setText] = useState('');
    const [fileName, setFileName] = useState('');
    const importer = useImportKnowledge();
    const run = () => importer.mutate({ format, text }, {
        onSuccess: (result) => {
            toast('Entries imported', `${result.created} knowledge ${result.created === 1 ? 'entry was' : 'entries were'} added.`, Intent.SUCCESS);
            onClose();
        },
        onError: (err) => toast('Failed to create knowledge entry', errorText(err), Intent.DANGER)
    });
    return (
        <AppDialog isOpen onClose={onClose} title="Import knowledge entries">
            <DialogBody>
                <FormGroup label="Format" labelFor="kb-format">
                    <HTMLSelect id="kb-format" value={format} onChange={(e) => setFormat(e.target.value as 'markdown' | 'csv')}
                        options={[{ value: 'markdown', label: 'Markdown: one entry per # heading' }, { value: 'csv', label: 'CSV: columns title, content (isActive)' }]} />
                </FormGroup>
                <FormGroup label="File" labelFor="kb-file">
                    <FileInput fill text={fileName || 'Choose a .md or .csv file...'} inputProps={{ id: 'kb-file', accept: '.md,.markdown,.txt,.csv,text/markdown,text/csv' }}
                        onInputChange={(e) => {
                            const file = (e.target as HTMLInputElement).files?.[0];
                            if (file) {
                                setFileName(file.name);
                                if (/\.csv$/i.test(file.name)) {
                                    setFormat('csv');
                                }
                                void file.text().then(setText);
                            }
                        }} />
                </FormGroup>
                <FormGroup label="Or paste the text" labelFor="kb-import-text">
                    <TextArea id="kb-import-text" value={text} onChange={(e) => setText(e.target.value)} fill rows={8}
                        placeholder={format === 'csv' ? 'title,content\nParking,Free parking behind the store.' : '# Parking\nFree parking behind the store.'} />
                </FormGroup>
                {importer.error && <Callout intent={Intent.DANGER}>{errorText(importer.error)}</Callout>}
            </DialogBody>
            <DialogFooter actions={<>
                <Button text="Cancel" onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={importer.isPending ? 'Importing...' : 'Import'} disabled={!text.trim() || importer.isPending} onClick={run} />
            </>} />
        </AppDialog>
    );
}

function EntryCard({ entry, usage, onEdit, onDelete, toast }: { entry: KnowledgeEntry; usage?: AiSourceUsage; onEdit(): void; onDelete(): void; toast: Toast }) {
    const update = useUpdateKnowledge();
    const t = useT();
    return (
        <Card className="lc-ai-entry" data-entry-id={entry.id}>
            <div className="lc-ai-entry-head">
                <h3 className="lc-ai-entry-title">{entry.title}</h3>
                {entry.lang && <Tag minimal data-testid="entry-language" title={languageName(entry.lang)}>{entry.lang.toUpperCase()}</Tag>}
                <Tag minimal intent={entry.isActive ? Intent.SUCCESS : Intent.NONE}>{entry.isActive ? 'Active' : 'Inactive'}</Tag>
            </div>
            <p className="lc-ai-preview">{preview(entry.content)}</p>
            <div className="lc-ai-usage" data-testid="entry-usage">
                <Tag minimal icon="chat" intent={usage?.answers ? Intent.PRIMARY : Intent.NONE}>{t('ai.learn.answers', { count: usage?.answers ?? 0 })}</Tag>
                {!!usage?.questions.length && (
                    <details>
                        <summary>{t('ai.learn.questionsItAnswered')}</summary>
                        <ul>{usage.questions.map((q) => <li key={q}>{q}</li>)}</ul>
                    </details>
                )}
            </div>
            <div className="lc-ai-actions">
                <Switch label="Active" checked={entry.isActive} disabled={update.isPending}
                    onChange={() => update.mutate({ id: entry.id, isActive: !entry.isActive }, {
                        onSuccess: (saved) => toast('Entry updated', `"${saved.title}" is now ${saved.isActive ? 'active' : 'inactive'}.`, Intent.SUCCESS),
                        onError: (err) => toast('Failed to update knowledge entry', errorText(err), Intent.DANGER)
                    })} />
                <Button icon="edit" text="Edit" onClick={onEdit} />
                <Button icon="trash" intent={Intent.DANGER} minimal text="Delete" onClick={onDelete} />
                {entry.updatedAt && <span className="bp5-text-muted">Updated {new Date(entry.updatedAt).toLocaleString()}</span>}
            </div>
        </Card>
    );
}

const TRIAGE_INTENT: Record<AiTriage, Intent> = { resolved: Intent.PRIMARY, unresolved: Intent.WARNING, pending: Intent.NONE };

/**
 * One AI answer: question, answer, where it stands and why (plugins/ai/services/triage.ts), and, unless resolved
 * already, a box to select it for the bulk resolve and its own Mark Resolved.
 */
function RecordCard({ record, onResolve, resolving, selected, onSelect, onLearn }: {
    record: AiChatRecord; onResolve?: () => void; resolving?: boolean; selected?: boolean; onSelect?: (on: boolean) => void; onLearn?: () => void;
}) {
    const t = useT();
    const open = record.triage !== 'resolved';
    return (
        <Card className={`lc-ai-record${selected ? ' lc-ai-record-selected' : ''}`} data-record-id={record.id} data-triage={record.triage}>
            <div className="lc-ai-record-row">
                {onSelect && open && (
                    <Checkbox className="lc-ai-record-check" checked={!!selected} onChange={(e) => onSelect((e.target as HTMLInputElement).checked)}
                        aria-label={t('ai.history.select', { question: record.userQuestion.slice(0, 80) })} />
                )}
                <div className="lc-ai-record-body">
                    <p className="lc-ai-record-q">{record.userQuestion}</p>
                    <p className="lc-ai-record-a">{record.aiResponse}</p>
                    <div className="lc-ai-record-meta">
                        <Tag minimal intent={TRIAGE_INTENT[record.triage]}>{t(`ai.triage.${record.triage}` as AdminTextKey)}</Tag>
                        {record.triageReason && <span className="lc-ai-record-reason">{t(`ai.reason.${record.triageReason}` as AdminTextKey)}</span>}
                        {record.fallbackAction && <Tag minimal icon="flows">{FALLBACK_LABELS[record.fallbackAction] ?? record.fallbackAction}</Tag>}
                        {record.answeredFrom && <Tag minimal icon="book">{t('ai.learn.answeredFrom', { title: record.answeredFrom.title })}</Tag>}
                        <span>{record.phoneNumber ?? 'Not verified'}</span>
                        {record.domain && <span>{record.domain}</span>}
                        {record.createdAt && <span>{new Date(record.createdAt).toLocaleString()}</span>}
                        {onResolve && open && <Button small intent={Intent.PRIMARY} text="Mark Resolved" disabled={resolving} onClick={onResolve} />}
                        {onLearn && unanswered(record) && <Button small icon="add" text={t('ai.learn.addToKnowledge')} onClick={onLearn} />}
                    </div>
                </div>
            </div>
        </Card>
    );
}

/** /ai-management (SPEC §2 'AI question management'): Knowledge Base and Chat History tabs. */
export default function AiManagement() {
    const knowledge = useKnowledge();
    const usage = useKnowledgeUsage();
    const history = useChatHistory();
    const unresolved = useUnresolvedChats();
    const remove = useDeleteKnowledge();
    const resolve = useMarkResolved();
    const resolveMany = useResolveMany();
    const t = useT();
    const [selected, setSelected] = useState<Set<number>>(() => new Set());
    const [tab, setTab] = useState('knowledge');
    const [editing, setEditing] = useState<KnowledgeEntry | 'new' | { question: string } | null>(null);
    const [importing, setImporting] = useState(false);
    const [deleting, setDeleting] = useState<KnowledgeEntry | null>(null);
    const toaster = useRef<OverlayToaster | null>(null);
    const toast = useCallback<Toast>((title, message, intent) => {
        toaster.current?.show({ message: <div><strong>{title}</strong><div>{message}</div></div>, intent, timeout: 5000 });
    }, []);
    const unresolvedCount = unresolved.data?.length ?? 0;

    const knowledgePanel = (
        <div>
            <div className="lc-ai-toolbar">
                <Button icon="import" text="Import" onClick={() => setImporting(true)} />
                <Button intent={Intent.PRIMARY} icon="add" text="Add Entry" onClick={() => setEditing('new')} />
            </div>
            {knowledge.isPending && <Spinner />}
            {knowledge.isError && <Callout intent={Intent.DANGER}>The knowledge base could not be loaded: {errorText(knowledge.error)}</Callout>}
            {knowledge.isSuccess && !knowledge.data.length && (
                <EmptyState icon="book" title="No knowledge entries yet" level={2} description="Add what the AI agent should know: hours, policies, promotions." />
            )}
            {knowledge.data?.map((entry) => (
                <EntryCard key={entry.id} entry={entry} toast={toast} usage={usage.data?.find((u) => u.kind === 'knowledge' && u.id === entry.id)}
                    onEdit={() => setEditing(entry)} onDelete={() => setDeleting(entry)} />
            ))}
            <h2 className="lc-ai-section-title">{t('ai.learn.usageTitle')}</h2>
            <p className="bp5-text-muted">{t('ai.learn.usageHelp')}</p>
            {usage.isSuccess && !usage.data.length && <p className="bp5-text-muted">{t('ai.learn.usageEmpty')}</p>}
            {!!usage.data?.length && (
                <HTMLTable compact striped className="lc-ai-usage-table" data-testid="usage-table">
                    <thead><tr><th>{t('ai.learn.colSource')}</th><th>{t('ai.learn.colKind')}</th><th>{t('ai.learn.colAnswers')}</th><th>{t('ai.learn.colQuestions')}</th></tr></thead>
                    <tbody>
                        {usage.data.map((u) => (
                            <tr key={`${u.kind}:${u.id}`}>
                                <td>{u.title}</td>
                                <td>{t(`ai.learn.kind.${u.kind}` as AdminTextKey)}</td>
                                <td>{u.answers}</td>
                                <td>{u.questions.join(' · ')}</td>
                            </tr>
                        ))}
                    </tbody>
                </HTMLTable>
            )}
        </div>
    );

    const select = (id: number, on: boolean) => setSelected((now) => {
        const next = new Set(now);
        if (on) {
            next.add(id);
        }
        else {
            next.delete(id);
        }
        return next;
    });
    const openIds = [...new Set([...(unresolved.data ?? []), ...(history.data ?? [])].filter((r) => r.triage !== 'resolved').map((r) => r.id))];
    const allSelected = openIds.length > 0 && openIds.every((id) => selected.has(id));
    const resolveSelected = () => {
        const ids = [...selected];
        resolveMany.mutate(ids, {
            onSuccess: (result) => {
                setSelected(new Set());
                toast(t('ai.history.resolvedTitle'), t('ai.history.resolvedText', { count: ids.length }), Intent.SUCCESS);
                return result;
            },
            onError: (err) => toast(t('ai.history.resolveFailed'), errorText(err), Intent.DANGER)
        });
    };
    const card = (record: AiChatRecord) => (
        <RecordCard key={record.id} record={record} resolving={resolve.isPending || resolveMany.isPending}
            selected={selected.has(record.id)} onSelect={(on) => select(record.id, on)} onLearn={() => setEditing({ question: record.userQuestion })}
            onResolve={() => resolve.mutate({ id: record.id, isResolved: true }, {
                onSuccess: () => toast('Chat status updated', 'The conversation is marked resolved.', Intent.SUCCESS),
                onError: (err) => toast('Update Failed', errorText(err), Intent.DANGER)
            })} />
    );

    const historyPanel = (
        <div>
            <p className="bp5-text-muted lc-ai-triage-help">{t('ai.history.rule')}</p>
            <div className="lc-ai-bulk" role="toolbar" aria-label={t('ai.history.bulkLabel')}>
                <Checkbox className="lc-ai-bulk-all" checked={allSelected} indeterminate={!allSelected && selected.size > 0} disabled={!openIds.length}
                    label={t('ai.history.selectAll')} onChange={() => setSelected(allSelected ? new Set() : new Set(openIds))} />
                <span className="lc-ai-bulk-count" aria-live="polite">{t('ai.history.selected', { count: selected.size })}</span>
                <Button intent={Intent.PRIMARY} icon="tick" text={resolveMany.isPending ? t('ai.history.resolving') : t('ai.history.resolveSelected')}
                    disabled={!selected.size || resolveMany.isPending} onClick={resolveSelected} />
                <Button minimal text={t('ai.history.clearSelection')} disabled={!selected.size} onClick={() => setSelected(new Set())} />
            </div>
            <h2 className="lc-ai-section-title">Unresolved conversations</h2>
            {unresolved.isPending && <Spinner />}
            {unresolved.isSuccess && !unresolvedCount && <p className="bp5-text-muted">Nothing left unresolved.</p>}
            {unresolved.data?.map(card)}
            <h2 className="lc-ai-section-title">Recent history</h2>
            {history.isPending && <Spinner />}
            {history.isSuccess && !history.data.length && <p className="bp5-text-muted">No conversations with the AI agent yet.</p>}
            {history.data?.map(card)}
        </div>
    );

    return (
        <>
            <OverlayToaster ref={toaster} maxToasts={1} position="top-right" />
            <div className="lc-page">
                <h1 className="lc-h1">AI Management</h1>
                <p className="bp5-text-muted">What the AI agent answers from, and what customers asked it.</p>
                <Tabs id="ai-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} large>
                    <Tab id="knowledge" title="Knowledge Base" panel={knowledgePanel} />
                    <Tab id="history" panel={historyPanel} title={
                        <span className="lc-ai-tab-title">Chat History <Tag round intent={unresolvedCount ? Intent.WARNING : Intent.NONE} data-testid="unresolved-count" aria-label={`${unresolvedCount} unresolved`}>{unresolvedCount}</Tag></span>
                    } />
                </Tabs>
            </div>
            {editing !== null && (
                <EntryDialog key={editing === 'new' ? 'new' : 'question' in editing ? `q:${editing.question}` : editing.id}
                    initial={editing === 'new' || 'question' in editing ? null : editing}
                    prefill={editing !== 'new' && 'question' in editing ? editing.question : undefined} onClose={() => setEditing(null)} toast={toast} />
            )}
            {importing && <ImportDialog onClose={() => setImporting(false)} toast={toast} />}
            <Alert
                isOpen={deleting !== null}
                intent={Intent.DANGER}
                icon="trash"
                cancelButtonText="Cancel"
                confirmButtonText="Delete"
                onCancel={() => setDeleting(null)}
                aria-labelledby="lc-delete-entry"
                onConfirm={() => {
                    const entry = deleting;
                    setDeleting(null);
                    if (entry) {
                        remove.mutate(entry.id, {
                            onSuccess: () => toast('Entry deleted', `"${entry.title}" was removed.`, Intent.SUCCESS),
                            onError: (err) => toast('Failed to delete knowledge entry', errorText(err), Intent.DANGER)
                        });
                    }
                }}
            >
                <p id="lc-delete-entry">Are you sure you want to delete this knowledge entry?</p>
            </Alert>
        </>
    );
}
