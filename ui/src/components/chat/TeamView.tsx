import { useState } from 'react';
import { Button, Callout, HTMLTable, Spinner, Switch, Tag } from '@blueprintjs/core';
import { TeamMember, useRoutingSettings, useSetCapacity, useSetRoutingSettings, useTeam } from '../../api/routing';
import { useT } from '../../i18n';

const PRESENCE_INTENT = { available: 'success', away: 'warning', offline: 'none' } as const;

/** One agent's capacity: a number field saved with Enter or the Save button. */
function CapacityField({ member }: { member: TeamMember }) {
    const t = useT();
    const save = useSetCapacity();
    const [value, setValue] = useState(String(member.capacity));
    const changed = value !== String(member.capacity);
    const submit = () => {
        const n = Number(value);
        if (changed && Number.isInteger(n)) {
            save.mutate({ userId: member.id, capacity: n });
        }
    };
    return (
        <div className="lc-capacity">
            <input className="bp5-input lc-capacity-input" type="number" min={1} max={50} step={1} value={value}
                aria-label={t('team.capacityOf', { name: member.agentName })} data-testid={`capacity-${member.id}`}
                onChange={(e) => setValue(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') submit(); }} />
            {changed && <Button small intent="primary" text={t('team.save')} loading={save.isPending} onClick={submit} />}
            {save.isError && <span className="lc-capacity-error" role="alert">{(save.error as Error).message}</span>}
        </div>
    );
}

/**
 * The team page (issue 26, /admin-chat/team): the store's staff with presence, open chats and capacity (chats at
 * once), and the store's auto-assign switch. Admins answer chats; organization users are listed without a capacity.
 */
export function TeamView() {
    const t = useT();
    const team = useTeam();
    const settings = useRoutingSettings();
    const setSettings = useSetRoutingSettings();
    return (
        <section className="lc-team lc-pane" aria-labelledby="lc-team-title" data-testid="team">
            <div className="lc-pane-head">
                <h2 id="lc-team-title" className="lc-pane-title">{t('team.title')}</h2>
            </div>
            <div className="lc-team-body">
                <div className="lc-team-routing">
                    <Switch checked={settings.data?.autoAssign ?? false} disabled={!settings.data || setSettings.isPending}
                        label={t('team.autoAssign')} data-testid="auto-assign"
                        onChange={(e) => setSettings.mutate({ autoAssign: (e.target as HTMLInputElement).checked })} />
                    <p className="lc-team-help">{t('team.autoAssignHelp', { seconds: settings.data?.offerSeconds ?? 30 })}</p>
                    {setSettings.isError && <Callout intent="danger">{(setSettings.error as Error).message}</Callout>}
                </div>
                {team.isPending && <Spinner size={24} />}
                {team.isError && <Callout intent="danger">{(team.error as Error).message}</Callout>}
                {team.data && (
                    <div className="lc-team-table-wrap">
                        <HTMLTable compact className="lc-team-table">
                            <thead>
                                <tr>
                                    <th scope="col">{t('team.name')}</th>
                                    <th scope="col">{t('team.role')}</th>
                                    <th scope="col">{t('team.presence')}</th>
                                    <th scope="col">{t('team.openChats')}</th>
                                    <th scope="col">{t('team.capacity')}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {team.data.map((m) => (
                                    <tr key={m.id} data-testid={`team-member-${m.id}`}>
                                        <td><strong>{m.agentName}</strong><div className="lc-team-email">{m.email}</div></td>
                                        <td>{m.role === 'admin' ? t('role.admin') : t('role.org_user')}</td>
                                        <td><Tag minimal intent={PRESENCE_INTENT[m.presence]}>{t(`team.presence.${m.presence}`)}</Tag></td>
                                        <td>{m.isAgent ? t('team.openOf', { open: m.openChats, capacity: m.capacity }) : '—'}
                                            {m.pendingOffers > 0 && <div className="lc-team-email">{t('team.offers', { count: m.pendingOffers })}</div>}</td>
                                        <td>{m.isAgent ? <CapacityField key={m.capacity} member={m} /> : <span className="lc-team-email">{t('team.notAgent')}</span>}</td>
                                    </tr>
                                ))}
                            </tbody>
                        </HTMLTable>
                    </div>
                )}
            </div>
        </section>
    );
}
