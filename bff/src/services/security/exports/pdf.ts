import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { Content } from './files.ts';
import { SEVERITIES, type Pages, type VulnerabilityExportRow } from './rows.ts';
import { csvDate } from './csv.ts';

export interface PdfReport {
  /** What the report covers: "Project acme/website", "Group acme", "Security dashboard of root". */
  title: string;
  generatedAt: string;
  counts: Record<string, number>;
  pages: Pages<VulnerabilityExportRow>;
}

/**
 * A readable vulnerability report: a summary by severity, then each finding with its state,
 * scanner, location and identifiers. Pages are written out as they fill (pdfkit keeps only the
 * current one). pdfkit pushes its bytes whether or not they are read, so they go through a
 * stream of our own, and the next page of findings is laid out only once that stream has
 * drained: memory stays flat however many findings there are and however slow the file.
 */
export function vulnerabilityPdf(report: PdfReport): Content {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Vulnerability report: ${report.title}`, Author: 'Gatehouse' } });
  const out = new PassThrough();
  doc.on('data', (chunk: Buffer) => out.write(chunk));
  doc.on('end', () => out.end());
  doc.on('error', (e: Error) => out.destroy(e));
  /**
   * Waits while more than a buffer's worth is held. The rows may come without a turn of the
   * event loop (SQLite reads are synchronous), and pdfkit's bytes reach `out` only on one, so
   * each wait first gives the streams that turn.
   */
  const heldBack = async () => {
    while (!out.destroyed && doc.readableLength + out.writableLength > out.writableHighWaterMark) {
      await new Promise((r) => setImmediate(r));
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    }
  };
  const write = async () => {
    doc.fontSize(20).text('Vulnerability report');
    doc.moveDown(0.3).fontSize(12).fillColor('#444').text(report.title).text(`Generated ${csvDate(report.generatedAt)}`);
    doc.moveDown().fillColor('black').fontSize(14).text('Summary by severity');
    doc.moveDown(0.3).fontSize(11);
    const total = SEVERITIES.reduce((n, s) => n + (report.counts[s] ?? 0), 0);
    for (const s of SEVERITIES) doc.text(`${s[0].toUpperCase()}${s.slice(1)}: ${report.counts[s] ?? 0}`);
    doc.text(`Total: ${total}`);
    doc.moveDown().fontSize(14).text('Findings');
    let n = 0;
    for await (const page of report.pages) {
      for (const r of page) {
        await heldBack();
        if (out.destroyed) return; // the file failed: nothing more is read
        n += 1;
        doc.moveDown(0.6).fontSize(11).fillColor('black').text(`${n}. [${r.severity.toUpperCase()}] ${r.title}`);
        doc.fontSize(9).fillColor('#333');
        doc.text(`Project: ${r.full_path} · Status: ${r.status}${r.dismissal_reason ? ` (${r.dismissal_reason})` : ''} · Tool: ${r.tool} · Scanner: ${r.scanner_name}`);
        if (r.location) doc.text(`Location: ${r.location}`);
        if (r.identifiers.length) doc.text(`Identifiers: ${r.identifiers.map((i) => i.name).join(', ')}`);
        doc.text(`Detected: ${csvDate(r.detected_at)}`);
        if (r.description) doc.text(r.description.length > 600 ? `${r.description.slice(0, 600)}…` : r.description);
      }
    }
    if (n === 0) doc.moveDown(0.5).fontSize(11).text('No vulnerabilities.');
    doc.end();
  };
  write().catch((e: unknown) => out.destroy(e as Error));
  return { source: out };
}
