import { Card, H2 } from '@blueprintjs/core';
import { useDaily, useHourly, type AnalyticsSummary, type DateFilter } from '../../api/analytics';
import { BarChart, COLORS, PieChart } from './charts';
import { Loaded } from './common';

/** Overview: pie of interaction types, hourly bars and stacked daily bars (7 days by default, SPEC §9). */
export default function OverviewTab({ summary, filter }: { summary: AnalyticsSummary; filter: DateFilter }) {
    const hourly = useHourly(filter);
    const daily = useDaily(filter);
    const other = Math.max(0, summary.totalInteractions - summary.successfulVerifications - summary.failedVerifications);
    return (
        <div className="lc-a-overview">
            <Card className="lc-a-card">
                <H2 className="lc-a-h2">Interaction types</H2>
                <PieChart title="Interaction types" slices={[
                    { label: 'Successful Verifications', value: summary.successfulVerifications, color: COLORS.successful },
                    { label: 'Failed Verifications', value: summary.failedVerifications, color: COLORS.failed },
                    { label: 'Other Interactions', value: other, color: COLORS.other }
                ]} />
            </Card>
            <Card className="lc-a-card">
                <H2 className="lc-a-h2">By hour of day</H2>
                <Loaded query={hourly}>{(rows) => (
                    <BarChart width={640} title="Interactions by hour" rows={rows.map((r) => ({ label: String(r.hour), values: [r.widget_opened, r.verified, r.points_viewed] }))}
                        series={[{ name: 'Opened', color: COLORS.other }, { name: 'Verified', color: COLORS.successful }, { name: 'Points viewed', color: COLORS.points }]} />
                )}</Loaded>
            </Card>
            <Card className="lc-a-card lc-a-wide">
                <H2 className="lc-a-h2">By day</H2>
                <Loaded query={daily}>{(rows) => (
                    <BarChart width={960} height={240} stacked title="Interactions by day" rows={rows.map((r) => ({ label: r.date.slice(5), values: [r.widget_opened, r.verified, r.points_viewed, r.live_chat_requested] }))}
                        series={[{ name: 'Opened', color: COLORS.other }, { name: 'Verified', color: COLORS.successful }, { name: 'Points viewed', color: COLORS.points }, { name: 'Live chat', color: COLORS.failed }]} />
                )}</Loaded>
            </Card>
        </div>
    );
}
