import { lazy, Suspense } from 'react';
import './charts.css';

/**
 * The analytics charts (issue 28: drawn with victory): a pie, bars (grouped or stacked) and lines. Victory is heavy, so
 * the drawings (victory-charts.tsx) are their own lazy chunk, fetched only when a chart shows (the analytics page and
 * the org dashboard); until then a box of the chart's height holds its place. Each chart is one <svg role="img">
 * named by its title with the figures as its description, with a legend in text beside it.
 */

/** SPEC §9 chart colours. */
export const COLORS = { successful: '#10B981', failed: '#EF4444', points: '#3B82F6', other: '#F59E0B', neutral: '#8F99A8', loaded: '#6366F1' };

export interface Series { name: string; color: string }
export interface PieChartProps { slices: Array<{ label: string; value: number; color: string }>; title: string }
export interface BarChartProps {
    rows: Array<{ label: string; values: number[] }>; series: Series[]; stacked?: boolean; title: string; height?: number; width?: number;
}
/** A null value (e.g. the average of a day without ratings) is a gap in its line. */
export interface LineChartProps {
    rows: Array<{ label: string; values: Array<number | null> }>; series: Series[]; title: string; height?: number; width?: number;
}

const drawings = () => import(/* webpackChunkName: "charts" */ './victory-charts');
const LazyPie = lazy(() => drawings().then((m) => ({ default: m.PieChart })));
const LazyBar = lazy(() => drawings().then((m) => ({ default: m.BarChart })));
const LazyLine = lazy(() => drawings().then((m) => ({ default: m.LineChart })));

function Placeholder({ height }: { height: number }) {
    return <div className="lc-chart-loading" style={{ minHeight: height }} aria-busy="true" />;
}

export function PieChart(props: PieChartProps) {
    return <Suspense fallback={<Placeholder height={200} />}><LazyPie {...props} /></Suspense>;
}

export function BarChart(props: BarChartProps) {
    return <Suspense fallback={<Placeholder height={props.height ?? 220} />}><LazyBar {...props} /></Suspense>;
}

export function LineChart(props: LineChartProps) {
    return <Suspense fallback={<Placeholder height={props.height ?? 220} />}><LazyLine {...props} /></Suspense>;
}
