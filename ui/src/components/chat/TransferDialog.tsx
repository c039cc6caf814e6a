import { useState } from 'react';
import { Button, Callout, Classes, FormGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import type { ChatSession } from '../../api/chat';
import { useTeam, useTransfer } from '../../api/routing';
import { useAdminAuth } from '../../auth/AdminGuard';
import { useT } from '../../i18n';
import { AppDialog } from '../a11y';

/**
 * Hand-over inside the team (issue 26): pick another Available agent of the store and leave them a note (staff only);
 * the customer is told who they are chatting with now.
 */
export function TransferDialog({ session, isOpen, onClose, onDone }: {
    session: ChatSession; isOpen: boolean; onClose(): void; onDone(agentName: string): void;
}) {
    const t = useT();
    const { user } = useAdminAuth();
    const team = useTeam(isOpen);
    const transfer = useTransfer();
    const [to, setTo] = useState<number | null>(null);
    const [note, setNote] = useState('');
    const agents = (team.data ?? []).filter((m) => m.isAgent && m.presence === 'available' && m.id !== user.id && m.id !== session.agentId);
    const chosen = agents.find((m) => m.id === to) ?? null;
    const submit = () => {
        if (!chosen) {
            return;
        }
        transfer.mutate({ sessionId: session.sessionId, toAgentId: chosen.id, note: note.trim() }, {
            onSuccess: () => {
                setNote('');
                setTo(null);
                onDone(chosen.agentName);
            }
        });
    };
    return (
        <AppDialog title={t('transfer.title')} isOpen={isOpen} onClose={onClose} className="lc-transfer-dialog">
            <div className={Classes.DIALOG_BODY}>
                {team.isPending && <p>{t('transfer.loading')}</p>}
                {team.data && !agents.length && <Callout intent="warning" data-testid="transfer-nobody">{t('transfer.nobody')}</Callout>}
                {agents.length > 0 && (
                    <RadioGroup label={t('transfer.to')} selectedValue={to ?? undefined} onChange={(e) => setTo(Number((e.target as HTMLInputElement).value))}>
                        {agents.map((m) => (
                            <Radio key={m.id} value={m.id} data-testid={`transfer-to-${m.id}`}
                                labelElement={<span>{m.agentName} <small className="lc-team-email">{t('team.openOf', { open: m.openChats, capacity: m.capacity })}</small></span>} />
                        ))}
                    </RadioGroup>
                )}
                <FormGroup label={t('transfer.note')} labelFor="lc-transfer-note" helperText={t('transfer.noteHelp')}>
                    <TextArea id="lc-transfer-note" fill rows={3} value={note} maxLength={2000} data-testid="transfer-note" onChange={(e) => setNote(e.target.value)} />
                </FormGroup>
                {transfer.isError && <Callout intent="danger" role="alert">{(transfer.error as Error).message}</Callout>}
            </div>
            <div className={Classes.DIALOG_FOOTER}>
                <div className={Classes.DIALOG_FOOTER_ACTIONS}>
                    <Button text={t('transfer.cancel')} onClick={onClose} />
                    <Button intent="primary" text={chosen ? t('transfer.submitTo', { name: chosen.agentName }) : t('transfer.submit')} disabled={!chosen}
                        loading={transfer.isPending} onClick={submit} data-testid="transfer-submit" />
                </div>
            </div>
        </AppDialog>
    );
}
