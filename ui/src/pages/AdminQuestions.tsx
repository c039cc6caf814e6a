import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
    Alert, Button, ButtonGroup, Callout, Card, DialogBody, DialogFooter, FormGroup, H1, HTMLSelect, InputGroup,
    Intent, Spinner, Switch, Tab, Tabs, Tag, TextArea
} from '@blueprintjs/core';
import { ApiError } from '../api/client';
import {
    DEFAULT_QUESTIONS, KIND_LABELS, Question, QuestionInput, QuestionKind, useCreateQuestion, useDeleteQuestion, useQuestions, useSaveOrder, useUpdateQuestion
} from '../api/questions';
import { AppDialog, EmptyState, Heading } from '../components/a11y';
import { AdminTextKey, useT } from '../i18n';
import { languageName, useStoreLanguages } from '../features/widget/WidgetLanguagesCard';
// This page's own layout rules (scoped by class names): a stylesheet, as the pages' CSP allows no inline style.
import './admin-questions.css';

function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

/** Add / edit form in a dialog. Save is disabled until question and answer are filled (SPEC §5). */
function QuestionDialog(props: { initial: Question | null; open: boolean; onClose(): void }) {
    const { initial, open, onClose } = props;
    const [question, setQuestion] = useState(initial?.question ?? '');
    const [answer, setAnswer] = useState(initial?.answer ?? '');
    const [isActive, setActive] = useState(initial?.isActive ?? true);
    const [kind, setKind] = useState<QuestionKind>(initial?.kind ?? 'answer');
    const [lang, setLang] = useState(initial?.lang ?? '');
    const languages = useStoreLanguages();
    const create = useCreateQuestion();
    const update = useUpdateQuestion();
    const pending = create.isPending || update.isPending;
    const error = create.error ?? update.error;
    // The widget never shows the answer of a points check or a live-support question: optional for those kinds.
    const needsAnswer = kind === 'answer';
    const canSave = question.trim() !== '' && (!needsAnswer || answer.trim() !== '') && !pending;
    const t = useT();

    const save = async () => {
        const input: QuestionInput = { question: question.trim(), answer: answer.trim(), kind, isActive, lang: lang || null };
        if (initial) {
            await update.mutateAsync({ id: initial.id, ...input });
        }
        else {
            await create.mutateAsync(input);
        }
        onClose();
    };

    return (
        <AppDialog isOpen={open} onClose={onClose} title={initial ? t('questions.editTitle') : t('questions.addTitle')}>
            <DialogBody>
                {error && <Callout intent={Intent.DANGER} className="lc-mb">{errorText(error)}</Callout>}
                <FormGroup label={t('questions.question')} labelFor="q-question">
                    <InputGroup id="q-question" value={question} onChange={(e) => setQuestion(e.target.value)} maxLength={500} autoFocus />
                </FormGroup>
                <FormGroup label={t('questions.kind')} labelFor="q-kind">
                    <HTMLSelect id="q-kind" value={kind} fill onChange={(e) => setKind(e.currentTarget.value as QuestionKind)}
                        options={(Object.keys(KIND_LABELS) as QuestionKind[]).map((k) => ({ value: k, label: t(`questions.kind.${k}` as AdminTextKey) }))} />
                </FormGroup>
                <FormGroup label={t('questions.answer')} labelFor="q-answer" labelInfo={needsAnswer ? t('questions.answerRequired') : t('questions.answerOptional')}
                    helperText={needsAnswer ? undefined : t('questions.answerNotShown')}>
                    <TextArea id="q-answer" value={answer} onChange={(e) => setAnswer(e.target.value)} fill rows={5} maxLength={5000} />
                </FormGroup>
                <FormGroup label={t('questions.language')} labelFor="q-lang" helperText={t('questions.languageHelp')}>
                    <HTMLSelect id="q-lang" value={lang} fill onChange={(e) => setLang(e.currentTarget.value)}
                        options={[{ value: '', label: t('questions.languageDefault', { name: languageName(languages.data?.default ?? 'en') }) },
                            ...(languages.data?.shipped ?? []).map((l) => ({ value: l, label: languageName(l) }))]} />
                </FormGroup>
                <Switch label={t('common.active')} checked={isActive} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} />
            </DialogBody>
            <DialogFooter actions={<>
                <Button text={t('common.cancel')} onClick={onClose} />
                <Button intent={Intent.PRIMARY} text={pending ? t('common.saving') : t('common.save')} disabled={!canSave} onClick={() => save().catch(() => undefined)} />
            </>} />
        </AppDialog>
    );
}

function QuestionRow(props: { q: Question; index: number; count: number; onEdit(): void; onDelete(): void; onMove(delta: -1 | 1): void; busy: boolean }) {
    const { q, index, count, onEdit, onDelete, onMove, busy } = props;
    const update = useUpdateQuestion();
    const t = useT();
    return (
        <Card className="lc-question" data-question-id={q.id}>
            <div className="lc-question-head">
                <Heading level={2} look={5} className="lc-question-title">{q.question}</Heading>
                {q.kind !== 'answer' && <Tag minimal intent={Intent.PRIMARY} data-kind={q.kind}>{q.kind === 'loyalty_check' ? t('questions.tagLoyalty') : t('questions.tagLive')}</Tag>}
                <Tag minimal intent={q.isActive ? Intent.SUCCESS : Intent.NONE}>{q.isActive ? t('common.active') : t('common.inactive')}</Tag>
                {q.lang && <Tag minimal data-testid="question-language" title={languageName(q.lang)}>{q.lang.toUpperCase()}</Tag>}
            </div>
            {q.answer && <p className="lc-question-answer">{q.answer}</p>}
            <div className="lc-question-actions">
                <ButtonGroup>
                    <Button icon="arrow-up" aria-label={t('questions.moveUp')} title={t('questions.moveUp')} disabled={index === 0 || busy} onClick={() => onMove(-1)} />
                    <Button icon="arrow-down" aria-label={t('questions.moveDown')} title={t('questions.moveDown')} disabled={index === count - 1 || busy} onClick={() => onMove(1)} />
                </ButtonGroup>
                <Switch className="lc-inline-switch" label={t('common.active')} checked={q.isActive} disabled={update.isPending}
                    onChange={() => update.mutate({ id: q.id, isActive: !q.isActive })} />
                <Button icon="edit" text={t('common.edit')} onClick={onEdit} />
                <Button icon="trash" intent={Intent.DANGER} minimal text={t('common.delete')} onClick={onDelete} />
            </div>
        </Card>
    );
}

/** Pre-made questions (SPEC §2 '/admin-questions'): Manage Questions and Preview tabs. */
export default function AdminQuestions() {
    const questions = useQuestions();
    const t = useT();
    const remove = useDeleteQuestion();
    const saveOrder = useSaveOrder();
    const create = useCreateQuestion();
    const [editing, setEditing] = useState<Question | null | 'new'>(null);
    // The admin home's "Add Question" comes here with ?add=1: the add dialog opens (once).
    const [params, setParams] = useSearchParams();
    useEffect(() => {
        if (params.get('add') === '1') {
            setEditing('new');
            setParams({}, { replace: true });
        }
    }, [params, setParams]);
    const [deleting, setDeleting] = useState<Question | null>(null);
    const [tab, setTab] = useState<string>('manage');

    const list = [...(questions.data ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
    const loadFailed = questions.isError;

    const move = (index: number, delta: -1 | 1) => {
        const target = index + delta;
        if (target < 0 || target >= list.length) {
            return;     // blocked at the ends
        }
        const ids = list.map((q) => q.id);
        [ids[index], ids[target]] = [ids[target], ids[index]];
        saveOrder.mutate(ids);
    };

    const saveDefaults = async () => {
        for (const q of DEFAULT_QUESTIONS) {
            await create.mutateAsync(q);
        }
    };

    const manage = (
        <div>
            <div className="lc-toolbar">
                <Button intent={Intent.PRIMARY} icon="add" text={t('questions.add')} onClick={() => setEditing('new')} disabled={loadFailed} />
            </div>
            {saveOrder.error && <Callout intent={Intent.DANGER} className="lc-mb">{errorText(saveOrder.error)}</Callout>}
            {remove.error && <Callout intent={Intent.DANGER} className="lc-mb">{errorText(remove.error)}</Callout>}
            {questions.isPending && <Spinner />}
            {loadFailed && (
                <Callout intent={Intent.WARNING} className="lc-mb">
                    <Heading level={2} look={5}>{t('questions.loadFailed')}</Heading>
                    <p>{t('questions.showingDefaults', { error: errorText(questions.error) })}</p>
                    <Button text={create.isPending ? t('common.saving') : t('questions.saveDefaults')} disabled={create.isPending} onClick={() => saveDefaults().catch(() => undefined)} />
                    {create.error && <p className="lc-error-text">{errorText(create.error)}</p>}
                </Callout>
            )}
            {loadFailed && DEFAULT_QUESTIONS.map((q) => (
                <Card key={q.question} className="lc-question"><Heading level={2} look={5}>{q.question}</Heading><p>{q.answer}</p></Card>
            ))}
            {questions.isSuccess && !list.length && (
                <EmptyState icon="help" title={t('questions.empty')} level={2} description={t('questions.emptyText')} />
            )}
            {list.map((q, index) => (
                <QuestionRow key={q.id} q={q} index={index} count={list.length} busy={saveOrder.isPending}
                    onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} onMove={(delta) => move(index, delta)} />
            ))}
        </div>
    );

    const active = list.filter((q) => q.isActive);
    const preview = (
        <Card className="lc-preview">
            <Heading level={2} look={5}>{t('questions.previewTitle')}</Heading>
            <div className="lc-preview-list">
                {(loadFailed ? DEFAULT_QUESTIONS : active).map((q) => (
                    <Button key={q.question} className="lc-preview-chip" minimal outlined text={q.question} />
                ))}
                {!loadFailed && !active.length && <p className="bp5-text-muted">{t('questions.noActive')}</p>}
            </div>
        </Card>
    );

    return (
        <div className="lc-page">
            <H1 className="lc-h1">{t('questions.title')}</H1>
            <Tabs id="questions-tabs" className="lc-wrap-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} large>
                <Tab id="manage" title={t('questions.tabManage')} panel={manage} />
                <Tab id="preview" title={t('questions.tabPreview')} panel={preview} />
            </Tabs>
            {editing !== null && (
                <QuestionDialog key={editing === 'new' ? 'new' : editing.id} open initial={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
            )}
            <Alert
                isOpen={deleting !== null}
                intent={Intent.DANGER}
                icon="trash"
                cancelButtonText={t('common.cancel')}
                confirmButtonText={t('common.delete')}
                onCancel={() => setDeleting(null)}
                aria-labelledby="lc-delete-question"
                onConfirm={() => {
                    if (deleting) {
                        remove.mutate(deleting.id);
                    }
                    setDeleting(null);
                }}
            >
                <p id="lc-delete-question">{t('questions.confirmDelete')}</p>
            </Alert>
        </div>
    );
}
