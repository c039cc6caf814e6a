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
import { AdminTextKey, Translate, useT } from '../i18n';
import { useStaffTime } from '../time';
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

const FALLBACK_ACTIONS = ['live_chat', 'offer_live_chat', 'leave_message', 'questions', 'verify_phone'];

/** What the agent offered instead of an answer, in the agent's language (an unknown action: its code). */
export function fallbackLabel(t: Translate, action: string): string {
    return FALLBACK_ACTIONS.includes(action) ? t(`ai.fallback.${action}` as AdminTextKey) : action;
}

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
    const [phrasings, setPhrasings] = useState((initial?.phrasings ?? []).join('\n'));
    const languages = useStoreLanguages();
    const create = useCreateKnowledge();
    const update = useUpdateKnowledge();
    const pending = create.isPending || update.isPending;
    const canSave = title.trim() !== '' && content.trim() !== '' && !pending;
    const save = () => {
        const input = { title: title.trim(), content: content.trim(), isActive, lang: lang || null, phrasings: phrasings.split('\n').map((p) => p.trim()).filter(Boolean) };
        if (initial) {
            update.mutate({ id: initial.id, ...input }, {
                onSuccess: () => {
                    toast(t('ai.entry.updated'), t('ai.entry.saved', { title: input.title }), Intent.SUCCESS);
                    onClose();
                },
                onError: (err) => toast(t('ai.entry.updateFailed'), errorText(err), Intent.DANGER)
            });
        }
        else {
            create.mutate(input, {
                onSuccess: () => {
                    toast(t('ai.entry.created'), t('ai.entry.added', { title: input.title }), Intent.SUCCESS);
                    onClose();
                },
                onError: (err) => toast(t('ai.entry.createFailed'), errorText(err), Intent.DANGER)
            });
        }
    };
    return (
        <AppDialog isOpen onClose={onClose} title={initial ? t('ai.entry.editTitle') : prefill ? t('ai.learn.addTitle', { question: preview(prefill).slice(0, 80) }) : t('ai.entry.addTitle')}>
            <DialogBody>
                {prefill && <Callout intent={Intent.PRIMARY} icon="learning">{t('ai.learn.prefilled')}</Callout>}
                <FormGroup label={t('ai.entry.title')} labelFor="kb-title" labelInfo={t('common.required')}>
                    <InputGroup id="kb-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} autoFocus={!prefill} />
                </FormGroup>
                <FormGroup label={t('ai.entry.content')} labelFor="kb-content" labelInfo={t('common.required')}>
                    <TextArea id="kb-content" value={content} onChange={(e) => setContent(e.target.value)} fill rows={8} maxLength={10000} autoFocus={!!prefill} />
                </FormGroup>
                <FormGroup label={t('ai.entry.phrasings')} labelFor="kb-phrasings" helperText={t('ai.entry.phrasingsHelp')}>
                    <TextArea id="kb-phrasings" value={phrasings} onChange={(e) => setPhrasings(e.target.value)} fill rows={3} />
                </FormGroup>
                <FormGroup label={t('ai.kb.language')} labelFor="kb-lang" helperText={t('ai.kb.languageHelp')}>
                    <HTMLSelect id="kb-lang" value={lang} fill onChange={(e) => setLang(e.currentTarget.value)}
                        options={[{ value: '', label: t('ai.kb.languageDefault', { name: languageName(languages.data?.default ?? 'en') }) },
                            ...(languages.data?.shipped ?? []).map((l) => ({ value: l, label: languageName(l) }))]} />
                </FormGroup>
                <Switch label={t('common.active')} checked={isActive} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} />
            </DialogBody>
            <DialogFooter actions={<>
                <Button text={t('common.cancel')} onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={pending ? t('common.saving') : t('common.save')} disabled={!canSave} onClick={save} />
            </>} />
        </AppDialog>
    );
}

/** Many entries from a Markdown file (one per heading) or a CSV file (title,content[,isActive][,language]). */
function ImportDialog({ onClose, toast }: { onClose(): void; toast: Toast }) {
    const t = useT();
    const [format, setFormat] = useState<'markdown' | 'csv'>('markdown');
    const [text, setText] = useState('');
    const [fileName, setFileName] = useState('');
    const importer = useImportKnowledge();
    const run = () => importer.mutate({ format, text }, {
        onSuccess: (result) => {
            toast(t('ai.importer.done'), t('ai.importer.count', { count: result.created }), Intent.SUCCESS);
            onClose();
        },
        onError: (err) => toast(t('ai.entry.createFailed'), errorText(err), Intent.DANGER)
    });
    return (
        <AppDialog isOpen onClose={onClose} title={t('ai.importer.title')}>
            <DialogBody>
                <FormGroup label={t('ai.importer.format')} labelFor="kb-format" helperText={format === 'csv' ? t('ai.importer.csvHelp') : t('ai.importer.mdHelp')}>
                    <HTMLSelect id="kb-format" value={format} onChange={(e) => setFormat(e.target.value as 'markdown' | 'csv')}
                        options={[{ value: 'markdown', label: t('ai.importer.markdown') }, { value: 'csv', label: t('ai.importer.csv') }]} />
                </FormGroup>
                <FormGroup label={t('ai.importer.file')} labelFor="kb-file">
                    <FileInput fill text={fileName || t('ai.importer.choose')} inputProps={{ id: 'kb-file', accept: '.md,.markdown,.txt,.csv,text/markdown,text/csv' }}
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
                <FormGroup label={t('ai.importer.paste')} labelFor="kb-import-text">
                    <TextArea id="kb-import-text" value={text} onChange={(e) => setText(e.target.value)} fill rows={8}
                        placeholder={format === 'csv' ? t('ai.importer.csvExample') : t('ai.importer.mdExample')} />
                </FormGroup>
                {importer.error && <Callout intent={Intent.DANGER}>{errorText(importer.error)}</Callout>}
            </DialogBody>
            <DialogFooter actions={<>
                <Button text={t('common.cancel')} onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={importer.isPending ? t('ai.importing') : t('ai.import')} disabled={!text.trim() || importer.isPending} onClick={run} />
            </>} />
        </AppDialog>
    );
}

/**
 * Whether a customer's question may be kept as a way to ask: one line of at most 300 characters, with no email address
 * or phone number (the server refuses those: the agent reads phrasings for every customer).
 */
function sharable(question: string): boolean {
    return question.trim().length <= 300 && !/[\r\n]/.test(question.trim()) && !/@|\d[\d ().-]{6,}\d/.test(question);
}

/**
 * Whether a question cannot become a way to ask: it is the entry's title or one of its phrasings already (case and end
 * mark aside), or it is not sharable.
 */
function known(entry: KnowledgeEntry, question: string): boolean {
    const norm = (text: string) => text.trim().toLowerCase().replace(/[.!?]+$/, '');
    return !sharable(question) || [entry.title, ...entry.phrasings].some((p) => norm(p) === norm(question));
}

/** Adds a customer's question to an entry's other ways to ask (issue 30), with the toast that says where it now leads. */
function useAddPhrasing(toast: Toast) {
    const t = useT();
    const update = useUpdateKnowledge();
    const add = (entry: KnowledgeEntry, question: string, onDone?: () => void) => update.mutate({ id: entry.id, phrasings: [...entry.phrasings, question.trim()] }, {
        onSuccess: () => {
            toast(t('ai.entry.updated'), t('ai.learn.phrasingAdded', { question, title: entry.title }), Intent.SUCCESS);
            onDone?.();
        },
        onError: (err) => toast(t('ai.entry.updateFailed'), errorText(err), Intent.DANGER)
    });
    return { add, isPending: update.isPending, error: update.error };
}

/**
 * "Add to an entry…" (issue 30): a question the agent did not answer becomes another way to ask for an entry the store
 * already has, chosen here; the agent reads it with that entry from the next question on.
 */
function TeachDialog({ question, entries, onClose, toast }: { question: string; entries: KnowledgeEntry[]; onClose(): void; toast: Toast }) {
    const t = useT();
    const update = useAddPhrasing(toast);
    const choices = entries.filter((e) => !known(e, question));
    const [entryId, setEntryId] = useState('');
    const entry = choices.find((e) => String(e.id) === entryId);
    const save = () => {
        if (entry) {
            update.add(entry, question, onClose);
        }
    };
    return (
        <AppDialog isOpen onClose={onClose} title={t('ai.learn.teachTitle', { question: preview(question).slice(0, 80) })}>
            <DialogBody>
                <blockquote dir="auto" className="bp5-blockquote">{question}</blockquote>
                <FormGroup label={t('ai.learn.teachEntry')} labelFor="kb-teach-entry" helperText={t('ai.learn.teachHelp')}>
                    <HTMLSelect id="kb-teach-entry" value={entryId} fill autoFocus onChange={(e) => setEntryId(e.currentTarget.value)}
                        options={[{ value: '', label: t('ai.learn.teachChoose') }, ...choices.map((e) => ({ value: String(e.id), label: e.title }))]} />
                </FormGroup>
                {update.error && <Callout intent={Intent.DANGER}>{errorText(update.error)}</Callout>}
            </DialogBody>
            <DialogFooter actions={<>
                <Button text={t('common.cancel')} onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={update.isPending ? t('common.saving') : t('ai.learn.addPhrasing')} disabled={!entry || update.isPending} onClick={save} />
            </>} />
        </AppDialog>
    );
}

function EntryCard({ entry, usage, onEdit, onDelete, toast }: { entry: KnowledgeEntry; usage?: AiSourceUsage; onEdit(): void; onDelete(): void; toast: Toast }) {
    const update = useUpdateKnowledge();
    const phrasing = useAddPhrasing(toast);
    // One change of the entry at a time, as when both went through the same mutation.
    const busy = update.isPending || phrasing.isPending;
    const t = useT();
    const time = useStaffTime();
    return (
        <Card className="lc-ai-entry" data-entry-id={entry.id}>
            <div className="lc-ai-entry-head">
                <h3 className="lc-ai-entry-title" dir="auto">{entry.title}</h3>
                {entry.lang && <Tag minimal data-testid="entry-language" title={languageName(entry.lang)}>{entry.lang.toUpperCase()}</Tag>}
                <Tag minimal intent={entry.isActive ? Intent.SUCCESS : Intent.NONE}>{entry.isActive ? t('common.active') : t('common.inactive')}</Tag>
            </div>
            <p className="lc-ai-preview" dir="auto">{preview(entry.content)}</p>
            <div className="lc-ai-usage" data-testid="entry-usage">
                <Tag minimal icon="chat" intent={usage?.answers ? Intent.PRIMARY : Intent.NONE}>{t('ai.learn.answers', { count: usage?.answers ?? 0 })}</Tag>
                {!!entry.phrasings.length && <Tag minimal icon="comment" data-testid="entry-phrasings" title={entry.phrasings.join('\n')}>{t('ai.learn.phrasings', { count: entry.phrasings.length })}</Tag>}
                {!!usage?.questions.length && (
                    <details>
                        <summary>{t('ai.learn.questionsItAnswered')}</summary>
                        <ul>{usage.questions.map((q) => (
                            <li key={q}>
                                <span className="lc-ai-asked" dir="auto">{q}</span>
                                {/* The words a customer used, one click from being read with the entry (issue 30). */}
                                {!known(entry, q) && <Button small minimal icon="add" text={t('ai.learn.addPhrasing')} disabled={busy}
                                    onClick={() => phrasing.add(entry, q)} />}
                            </li>
                        ))}</ul>
                    </details>
                )}
            </div>
            <div className="lc-ai-actions">
                <Switch label={t('common.active')} checked={entry.isActive} disabled={busy}
                    onChange={() => update.mutate({ id: entry.id, isActive: !entry.isActive }, {
                        onSuccess: (saved) => toast(t('ai.entry.updated'), t('ai.entry.nowState', { title: saved.title, active: String(saved.isActive) }), Intent.SUCCESS),
                        onError: (err) => toast(t('ai.entry.updateFailed'), errorText(err), Intent.DANGER)
                    })} />
                <Button icon="edit" text={t('common.edit')} onClick={onEdit} />
                <Button icon="trash" intent={Intent.DANGER} minimal text={t('common.delete')} onClick={onDelete} />
                {entry.updatedAt && <span className="bp5-text-muted">{t('ai.entry.updatedAt', { time: time(entry.updatedAt) })}</span>}
            </div>
        </Card>
    );
}

const TRIAGE_INTENT: Record<AiTriage, Intent> = { resolved: Intent.PRIMARY, unresolved: Intent.WARNING, pending: Intent.NONE };

/**
 * One AI answer: question, answer, where it stands and why (plugins/ai/services/triage.ts), and, unless resolved
 * already, a box to select it for the bulk resolve and its own Mark Resolved.
 */
function RecordCard({ record, onResolve, resolving, selected, onSelect, onLearn, onTeach }: {
    record: AiChatRecord; onResolve?: () => void; resolving?: boolean; selected?: boolean; onSelect?: (on: boolean) => void; onLearn?: () => void;
    onTeach?: () => void;
}) {
    const t = useT();
    const time = useStaffTime();
    const open = record.triage !== 'resolved';
    return (
        <Card className={`lc-ai-record${selected ? ' lc-ai-record-selected' : ''}`} data-record-id={record.id} data-triage={record.triage}>
            <div className="lc-ai-record-row">
                {onSelect && open && (
                    <Checkbox className="lc-ai-record-check" checked={!!selected} onChange={(e) => onSelect((e.target as HTMLInputElement).checked)}
                        aria-label={t('ai.history.select', { question: record.userQuestion.slice(0, 80) })} />
                )}
                <div className="lc-ai-record-body">
                    <p className="lc-ai-record-q" dir="auto">{record.userQuestion}</p>
                    <p className="lc-ai-record-a" dir="auto">{record.aiResponse}</p>
                    <div className="lc-ai-record-meta">
                        <Tag minimal intent={TRIAGE_INTENT[record.triage]}>{t(`ai.triage.${record.triage}` as AdminTextKey)}</Tag>
                        {record.triageReason && <span className="lc-ai-record-reason">{t(`ai.reason.${record.triageReason}` as AdminTextKey)}</span>}
                        {record.fallbackAction && <Tag minimal icon="flows">{fallbackLabel(t, record.fallbackAction)}</Tag>}
                        {record.answeredFrom && <Tag minimal icon="book">{t('ai.learn.answeredFrom', { title: record.answeredFrom.title })}</Tag>}
                        <span>{record.phoneNumber ?? t('ai.record.notVerified')}</span>
                        {record.domain && <span>{record.domain}</span>}
                        {record.createdAt && <span>{time(record.createdAt)}</span>}
                        {onResolve && open && <Button small intent={Intent.PRIMARY} text={t('ai.record.markResolved')} disabled={resolving} onClick={onResolve} />}
                        {onLearn && unanswered(record) && <Button small icon="add" text={t('ai.learn.addToKnowledge')} onClick={onLearn} />}
                        {onTeach && unanswered(record) && sharable(record.userQuestion) && <Button small minimal icon="link" text={t('ai.learn.addToEntry')} onClick={onTeach} />}
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
    const [teaching, setTeaching] = useState<string | null>(null);
    const [deleting, setDeleting] = useState<KnowledgeEntry | null>(null);
    const toaster = useRef<OverlayToaster | null>(null);
    const toast = useCallback<Toast>((title, message, intent) => {
        toaster.current?.show({ message: <div><strong>{title}</strong><div>{message}</div></div>, intent, timeout: 5000 });
    }, []);
    const unresolvedCount = unresolved.data?.length ?? 0;

    const knowledgePanel = (
        <div>
            <div className="lc-ai-toolbar">
                <Button icon="import" text={t('ai.import')} onClick={() => setImporting(true)} />
                <Button intent={Intent.PRIMARY} icon="add" text={t('ai.addEntry')} onClick={() => setEditing('new')} />
            </div>
            {knowledge.isPending && <Spinner />}
            {knowledge.isError && <Callout intent={Intent.DANGER}>{t('ai.loadFailed', { error: errorText(knowledge.error) })}</Callout>}
            {knowledge.isSuccess && !knowledge.data.length && (
                <EmptyState icon="book" title={t('ai.empty')} level={2} description={t('ai.emptyText')} />
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
            onTeach={knowledge.data?.length ? () => setTeaching(record.userQuestion) : undefined}
            onResolve={() => resolve.mutate({ id: record.id, isResolved: true }, {
                onSuccess: () => toast(t('ai.record.statusUpdated'), t('ai.record.markedResolved'), Intent.SUCCESS),
                onError: (err) => toast(t('settings.updateFailed'), errorText(err), Intent.DANGER)
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
            <h2 className="lc-ai-section-title">{t('ai.history.unresolvedTitle')}</h2>
            {unresolved.isPending && <Spinner />}
            {unresolved.isSuccess && !unresolvedCount && <p className="bp5-text-muted">{t('ai.history.nothingUnresolved')}</p>}
            {unresolved.data?.map(card)}
            <h2 className="lc-ai-section-title">{t('ai.history.recent')}</h2>
            {history.isPending && <Spinner />}
            {history.isSuccess && !history.data.length && <p className="bp5-text-muted">{t('ai.history.none')}</p>}
            {history.data?.map(card)}
        </div>
    );

    return (
        <>
            <OverlayToaster ref={toaster} maxToasts={1} position="top-right" />
            <div className="lc-page">
                <h1 className="lc-h1">{t('ai.title')}</h1>
                <p className="bp5-text-muted">{t('ai.intro')}</p>
                <Tabs id="ai-tabs" className="lc-wrap-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} large>
                    <Tab id="knowledge" title={t('ai.tabKnowledge')} panel={knowledgePanel} />
                    <Tab id="history" panel={historyPanel} title={
                        <span className="lc-ai-tab-title">{t('ai.tabHistory')} <Tag round intent={unresolvedCount ? Intent.WARNING : Intent.NONE} data-testid="unresolved-count" aria-label={t('ai.unresolvedCount', { count: unresolvedCount })}>{t('common.number', { value: unresolvedCount })}</Tag></span>
                    } />
                </Tabs>
            </div>
            {editing !== null && (
                <EntryDialog key={editing === 'new' ? 'new' : 'question' in editing ? `q:${editing.question}` : editing.id}
                    initial={editing === 'new' || 'question' in editing ? null : editing}
                    prefill={editing !== 'new' && 'question' in editing ? editing.question : undefined} onClose={() => setEditing(null)} toast={toast} />
            )}
            {importing && <ImportDialog onClose={() => setImporting(false)} toast={toast} />}
            {teaching !== null && <TeachDialog question={teaching} entries={knowledge.data ?? []} onClose={() => setTeaching(null)} toast={toast} />}
            <Alert
                isOpen={deleting !== null}
                intent={Intent.DANGER}
                icon="trash"
                cancelButtonText={t('common.cancel')}
                confirmButtonText={t('common.delete')}
                onCancel={() => setDeleting(null)}
                aria-labelledby="lc-delete-entry"
                onConfirm={() => {
                    const entry = deleting;
                    setDeleting(null);
                    if (entry) {
                        remove.mutate(entry.id, {
                            onSuccess: () => toast(t('ai.entry.deleted'), t('ai.entry.removed', { title: entry.title }), Intent.SUCCESS),
                            onError: (err) => toast(t('ai.entry.deleteFailed'), errorText(err), Intent.DANGER)
                        });
                    }
                }}
            >
                <p id="lc-delete-entry">{t('ai.entry.confirmDelete')}</p>
            </Alert>
        </>
    );
}
