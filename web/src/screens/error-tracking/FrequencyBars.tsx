/**
 * A frequency as bars, one per bucket (oldest left), drawn as a small SVG: a sparkline in a
 * list row, a wider chart on an error's page. The picture is an image whose name is `label`
 * (the frequency in words), or, `decorative`, hidden from screen readers where the words are
 * beside it; the bars themselves are decoration. It narrows with its box, never wider than `width`.
 */
export function FrequencyBars({ buckets, label, width = 120, height = 28, decorative = false }: { buckets: [number, number][]; label: string; width?: number; height?: number; decorative?: boolean }) {
  const max = Math.max(1, ...buckets.map(([, c]) => c));
  const n = Math.max(1, buckets.length);
  const slot = width / n;
  const gap = slot > 4 ? 1 : 0;
  return (
    <svg
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label })}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      style={{ display: 'block', flexShrink: 0, width: '100%', maxWidth: width, minWidth: Math.min(width, 96), height }}
    >
      {!decorative && <title>{label}</title>}
      {/* The baseline: a bucket with no events is still a place on the axis. */}
      <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} stroke="var(--mantine-color-gray-4)" strokeWidth={1} />
      {buckets.map(([start, count], i) =>
        count > 0 ? <rect key={start} x={i * slot + gap / 2} width={Math.max(1, slot - gap)} y={height - Math.max(2, (count / max) * (height - 1))} height={Math.max(2, (count / max) * (height - 1))} fill="var(--mantine-color-red-7)" /> : null,
      )}
    </svg>
  );
}
