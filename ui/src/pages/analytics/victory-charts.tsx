import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Bar, Curve, Point, VictoryAxis, VictoryBar, VictoryChart, VictoryContainer, VictoryGroup, VictoryLine, VictoryPie, VictoryScatter, VictoryStack } from 'victory';
import type { BarChartProps, LineChartProps, PieChartProps, Series } from './charts';
import { useLanguage, useT } from '../../i18n';
import { numberFormat } from './common';

/**
 * The analytics charts drawn with victory (issue 28). Loaded only through charts.tsx's lazy wrappers, so victory is in
 * its own chunk, fetched with the analytics page and the org dashboard only. Each chart is one <svg role="img"> named
 * by its <title> with the figures in its <desc> (victory's container), and a text legend beside it.
 */

const AXIS_TEXT = { fontSize: 11, fill: '#404854', fontFamily: 'inherit', padding: 4 };
const AXIS = {
    axis: { stroke: '#C5CBD3' },
    tickLabels: AXIS_TEXT,
    ticks: { stroke: 'transparent' }
};
const DEPENDENT_AXIS = { ...AXIS, axis: { stroke: 'transparent' }, grid: { stroke: '#E5E8EB' } };
const PADDING = { left: 40, right: 12, top: 10, bottom: 28 };

/** The figure's width in CSS pixels (followed on resize), so labels keep their size on a phone; `fallback` until measured. */
function useWidth(fallback: number): [React.RefObject<HTMLElement>, number] {
    const ref = useRef<HTMLElement>(null);
    const [width, setWidth] = useState(fallback);
    useEffect(() => {
        const el = ref.current;
        if (!el || typeof ResizeObserver === 'undefined') {
            return undefined;
        }
        const measure = () => {
            const w = Math.floor(el.getBoundingClientRect().width);
            if (w > 0) {
                setWidth(Math.min(fallback, Math.max(260, w)));
            }
        };
        measure();
        const observer = new ResizeObserver(measure);
        observer.observe(el);
        return () => observer.disconnect();
    }, [fallback]);
    return [ref, width];
}

function Legend({ series }: { series: Series[] }) {
    return (
        <ul className="lc-legend">
            {series.map((s) => (
                <li key={s.name}><span className="lc-legend-swatch" style={{ background: s.color }} aria-hidden="true" />{s.name}</li>
            ))}
        </ul>
    );
}

/** The figures as one sentence: the chart's text alternative (its <desc>), numbers written the language's way. */
function figures(rows: Array<{ label: string; values: Array<number | null> }>, series: Series[], num: Intl.NumberFormat): string {
    return rows.map((r) => `${r.label} ${r.values.map((v, i) => `${series[i].name} ${v === null ? '—' : num.format(v)}`).join(', ')}`).join('; ') || '—';
}

/** Which x labels are written: about one per 56 px, the first always. */
function every(count: number, width: number): number {
    return Math.max(1, Math.ceil(count / Math.max(2, Math.floor((width - PADDING.left - PADDING.right) / 56))));
}

function container(title: string, desc: string, className: string): ReactElement {
    return <VictoryContainer title={title} desc={desc} className={className} responsive />;
}

/** Rounds the top of the value axis up (at least 5), as the grid lines are at 0, half and the top. */
function niceMax(v: number): number {
    if (v <= 5) {
        return 5;
    }
    const p = 10 ** Math.floor(Math.log10(v));
    return Math.ceil(v / p) * p;
}

/**
 * The value axis with its grid at 0, half and the top, its ticks written in the agent's language (Arabic digits in
 * Arabic, a 5-digit grouping in Spanish): called, not a component of its own (VictoryChart reads its children's types).
 * The other axis's labels (days, hours, scores) come formatted in the language from the caller.
 */
function valueAxis(max: number, num: Intl.NumberFormat): ReactElement {
    return <VictoryAxis dependentAxis tickValues={[0, max / 2, max]} tickFormat={(v: number) => num.format(Math.round(v * 10) / 10)} style={DEPENDENT_AXIS} />;
}

/** SPEC §5: only slices above 0 are drawn. */
export function PieChart({ slices, title }: PieChartProps) {
    const t = useT();
    const num = numberFormat(useLanguage());
    const shown = slices.filter((s) => s.value > 0);
    const total = shown.reduce((a, s) => a + s.value, 0);
    const desc = shown.map((s) => `${s.label} ${num.format(s.value)}`).join(', ') || t('an.chart.noData');
    const data = total ? shown.map((s) => ({ x: s.label, y: s.value })) : [{ x: '—', y: 1 }];
    return (
        <figure className="lc-chart lc-pie" data-chart="pie">
            <VictoryPie standalone width={200} height={200} padding={20} data={data} labels={() => ''}
                colorScale={total ? shown.map((s) => s.color) : ['#E5E8EB']}
                style={{ data: { stroke: '#fff', strokeWidth: shown.length > 1 ? 1 : 0 } }}
                containerComponent={container(title, desc, 'lc-chart-svg')} />
            <ul className="lc-legend">
                {shown.map((s) => (
                    <li key={s.label}><span className="lc-legend-swatch" style={{ background: s.color }} aria-hidden="true" />
                        {t('an.chart.slice', { label: s.label, value: num.format(s.value), share: s.value / total })}</li>
                ))}
            </ul>
        </figure>
    );
}

/** Bars per label: grouped side by side, or stacked. */
export function BarChart({ rows, series, stacked = false, title, height = 220, width = 640 }: BarChartProps) {
    const [ref, w] = useWidth(width);
    const num = numberFormat(useLanguage());
    const max = niceMax(Math.max(0, ...rows.map((r) => (stacked ? r.values.reduce((a, b) => a + b, 0) : Math.max(0, ...r.values)))));
    const n = every(rows.length, w);
    const slot = (w - PADDING.left - PADDING.right) / Math.max(1, rows.length);
    const barWidth = Math.max(1, stacked || series.length === 1 ? slot * 0.7 : (slot * 0.8) / series.length - 1);
    const bars = series.map((s, j) => (
        <VictoryBar key={s.name} name={s.name} barWidth={barWidth} dataComponent={<Bar className="lc-bar" />}
            data={rows.map((r, i) => ({ x: i + 1, y: r.values[j] }))} style={{ data: { fill: s.color } }} />
    ));
    return (
        <figure className="lc-chart lc-bars" data-chart="bars" ref={ref as React.RefObject<HTMLElement>}>
            <VictoryChart width={w} height={height} padding={PADDING} domain={{ x: [0.5, rows.length + 0.5], y: [0, max] }}
                containerComponent={container(title, figures(rows, series, num), 'lc-chart-svg')}>
                <VictoryAxis tickValues={rows.map((_, i) => i + 1)} tickFormat={(_: number, i: number) => (i % n === 0 ? rows[i]?.label ?? '' : '')} style={AXIS} />
                {valueAxis(max, num)}
                {series.length === 1 ? bars[0] : stacked ? <VictoryStack>{bars}</VictoryStack> : <VictoryGroup offset={barWidth + 1}>{bars}</VictoryGroup>}
            </VictoryChart>
            <Legend series={series} />
        </figure>
    );
}

/** Lines per series over the labels; a null value is a gap in its line (no point, no segment through it). */
export function LineChart({ rows, series, title, height = 220, width = 960 }: LineChartProps) {
    const [ref, w] = useWidth(width);
    const num = numberFormat(useLanguage());
    const max = niceMax(Math.max(0, ...rows.flatMap((r) => r.values.filter((v): v is number => v !== null))));
    const n = every(rows.length, w);
    const single = rows.length <= 1;
    return (
        <figure className="lc-chart lc-lines" data-chart="lines" ref={ref as React.RefObject<HTMLElement>}>
            <VictoryChart width={w} height={height} padding={PADDING} domain={{ x: single ? [0, 2] : [1, rows.length], y: [0, max] }}
                containerComponent={container(title, figures(rows, series, num), 'lc-chart-svg')}>
                <VictoryAxis tickValues={rows.map((_, i) => i + 1)} tickFormat={(_: number, i: number) => (i % n === 0 ? rows[i]?.label ?? '' : '')} style={AXIS} />
                {valueAxis(max, num)}
                {series.map((s, j) => (
                    <VictoryLine key={s.name} name={s.name} dataComponent={<Curve className="lc-line" />}
                        data={rows.map((r, i) => ({ x: i + 1, y: r.values[j] }))} style={{ data: { stroke: s.color, strokeWidth: 2.5 } }} />
                ))}
                {series.map((s, j) => ({ s, points: rows.flatMap((r, i) => (r.values[j] === null ? [] : [{ x: i + 1, y: r.values[j] }])) }))
                    .filter(({ points }) => points.length > 0)
                    .map(({ s, points }) => (
                        <VictoryScatter key={`${s.name}-points`} name={`${s.name}-points`} size={3} dataComponent={<Point className="lc-point" />}
                            data={points} style={{ data: { fill: s.color } }} />
                    ))}
            </VictoryChart>
            <Legend series={series} />
        </figure>
    );
}
