import './charts.css';

/**
 * Light SVG charts for the analytics screen (no chart library): a pie, bars (grouped or stacked) and lines.
 * Each is one <svg role="img"> whose label states the figures, with a legend in text beside it.
 */

/** SPEC §9 chart colours. */
export const COLORS = { successful: '#10B981', failed: '#EF4444', points: '#3B82F6', other: '#F59E0B', neutral: '#8F99A8', loaded: '#6366F1' };

export interface Series { name: string; color: string }

function Legend({ series }: { series: Series[] }) {
    return (
        <ul className="lc-legend">
            {series.map((s) => (
                <li key={s.name}><span className="lc-legend-swatch" style={{ background: s.color }} aria-hidden="true" />{s.name}</li>
            ))}
        </ul>
    );
}

/** SPEC §5: only slices above 0 are drawn. */
export function PieChart({ slices, title }: { slices: Array<{ label: string; value: number; color: string }>; title: string }) {
    const shown = slices.filter((s) => s.value > 0);
    const total = shown.reduce((a, s) => a + s.value, 0);
    const label = `${title}: ${shown.map((s) => `${s.label} ${s.value}`).join(', ') || 'no data'}`;
    let angle = -Math.PI / 2;
    const r = 80;
    return (
        <figure className="lc-chart">
            <svg viewBox="0 0 200 200" role="img" aria-label={label} className="lc-pie">
                {total === 0 && <circle cx="100" cy="100" r={r} fill="#E5E8EB" />}
                {shown.length === 1 && <circle cx="100" cy="100" r={r} fill={shown[0].color} />}
                {shown.length > 1 && shown.map((s) => {
                    const sweep = (s.value / total) * Math.PI * 2;
                    const [x1, y1] = [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
                    angle += sweep;
                    const [x2, y2] = [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
                    return <path key={s.label} d={`M100,100 L${x1},${y1} A${r},${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x2},${y2} Z`} fill={s.color} stroke="#fff" strokeWidth="1" />;
                })}
            </svg>
            <ul className="lc-legend">
                {shown.map((s) => (
                    <li key={s.label}><span className="lc-legend-swatch" style={{ background: s.color }} aria-hidden="true" />
                        {s.label}: <strong>{s.value}</strong> ({Math.round((s.value / total) * 100)}%)</li>
                ))}
            </ul>
        </figure>
    );
}

function niceMax(v: number): number {
    if (v <= 5) {
        return 5;
    }
    const p = 10 ** Math.floor(Math.log10(v));
    return Math.ceil(v / p) * p;
}

/** Bars per label: grouped side by side, or stacked. */
export function BarChart({ rows, series, stacked = false, title, height = 220, width = 640 }: {
    rows: Array<{ label: string; values: number[] }>; series: Series[]; stacked?: boolean; title: string; height?: number; width?: number;
}) {
    const pad = { left: 40, right: 8, top: 10, bottom: 28 };
    const max = niceMax(Math.max(0, ...rows.map((r) => (stacked ? r.values.reduce((a, b) => a + b, 0) : Math.max(0, ...r.values)))));
    const plotH = height - pad.top - pad.bottom;
    const slot = (width - pad.left - pad.right) / Math.max(1, rows.length);
    const barW = stacked ? slot * 0.7 : (slot * 0.8) / series.length;
    const y = (v: number) => pad.top + plotH - (v / max) * plotH;
    const every = Math.ceil(rows.length / 12);
    const label = `${title}: ${rows.map((r) => `${r.label} ${r.values.map((v, i) => `${series[i].name} ${v}`).join(', ')}`).join('; ')}`;
    return (
        <figure className="lc-chart">
            <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="lc-bars">
                {[0, 0.5, 1].map((f) => (
                    <g key={f}>
                        <line x1={pad.left} x2={width - pad.right} y1={y(max * f)} y2={y(max * f)} stroke="#E5E8EB" />
                        <text x={pad.left - 6} y={y(max * f) + 4} textAnchor="end" className="lc-axis">{Math.round(max * f)}</text>
                    </g>
                ))}
                {rows.map((r, i) => {
                    const x0 = pad.left + i * slot + (slot - (stacked ? barW : barW * series.length)) / 2;
                    let base = 0;
                    return (
                        <g key={r.label}>
                            {r.values.map((v, j) => {
                                const top = stacked ? base + v : v;
                                const rect = <rect key={j} x={stacked ? x0 : x0 + j * barW} width={Math.max(1, barW - 1)} y={y(top)} height={Math.max(0, y(stacked ? base : 0) - y(top))} fill={series[j].color} />;
                                base += stacked ? v : 0;
                                return rect;
                            })}
                            {i % every === 0 && <text x={pad.left + i * slot + slot / 2} y={height - 8} textAnchor="middle" className="lc-axis">{r.label}</text>}
                        </g>
                    );
                })}
            </svg>
            <Legend series={series} />
        </figure>
    );
}

/** Lines per series over the labels. */
export function LineChart({ rows, series, title, height = 220, width = 960 }: { rows: Array<{ label: string; values: number[] }>; series: Series[]; title: string; height?: number; width?: number }) {
    const pad = { left: 40, right: 12, top: 10, bottom: 28 };
    const max = niceMax(Math.max(0, ...rows.flatMap((r) => r.values)));
    const plotH = height - pad.top - pad.bottom;
    const step = (width - pad.left - pad.right) / Math.max(1, rows.length - 1);
    const x = (i: number) => pad.left + (rows.length === 1 ? (width - pad.left - pad.right) / 2 : i * step);
    const y = (v: number) => pad.top + plotH - (v / max) * plotH;
    const every = Math.ceil(rows.length / 10);
    const label = `${title}: ${rows.map((r) => `${r.label} ${r.values.map((v, i) => `${series[i].name} ${v}`).join(', ')}`).join('; ')}`;
    return (
        <figure className="lc-chart">
            <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="lc-lines">
                {[0, 0.5, 1].map((f) => (
                    <g key={f}>
                        <line x1={pad.left} x2={width - pad.right} y1={y(max * f)} y2={y(max * f)} stroke="#E5E8EB" />
                        <text x={pad.left - 6} y={y(max * f) + 4} textAnchor="end" className="lc-axis">{Math.round(max * f)}</text>
                    </g>
                ))}
                {series.map((s, j) => (
                    <g key={s.name}>
                        <polyline fill="none" stroke={s.color} strokeWidth="2.5" points={rows.map((r, i) => `${x(i)},${y(r.values[j])}`).join(' ')} />
                        {rows.map((r, i) => <circle key={i} cx={x(i)} cy={y(r.values[j])} r="3" fill={s.color} />)}
                    </g>
                ))}
                {rows.map((r, i) => (i % every === 0
                    ? <text key={r.label} x={x(i)} y={height - 8} textAnchor="middle" className="lc-axis">{r.label}</text>
                    : null))}
            </svg>
            <Legend series={series} />
        </figure>
    );
}
