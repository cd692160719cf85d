import { html, type SafeHtml } from '../staff/index.ts';

/** One row of a chart: a label and one value per series (this week, last week…). */
export interface ChartRow {
  label: string;
  values: readonly number[];
}

export interface BarChart {
  /** Unique on the page: the ids of the chart's title and description derive from it. */
  id: string;
  title: string;
  /** What each series is, in order; its bars take the class `chart-series-<index>`. */
  series: readonly string[];
  rows: readonly ChartRow[];
}

const WIDTH = 360;
const LABEL_HEIGHT = 18;
const BAR_HEIGHT = 14;
const ROW_GAP = 12;
/** Room kept right of the longest bar for its number. */
const NUMBER_ROOM = 40;
/** Characters of a label the width holds at 13 px; the <desc> and the table keep it whole. */
const LABEL_CHARACTERS = 48;

const fitted = (label: string) =>
  label.length > LABEL_CHARACTERS ? `${label.slice(0, LABEL_CHARACTERS - 1).trimEnd()}…` : label;

/**
 * A small horizontal bar chart drawn on the server (docs/workspace.md, « Le tableau de bord »): no
 * script, no library. It is one image (role="img") named by its <title> and described by a <desc>
 * that says every value, for screen readers; the page puts the same figures in a table beside it.
 * Colours come from classes (the CSP refuses inline styles), shared with the legend.
 */
export function barChart({ id, title, series, rows }: BarChart): SafeHtml {
  const largest = Math.max(1, ...rows.flatMap((row) => row.values));
  const scale = (WIDTH - NUMBER_ROOM) / largest;
  const rowHeight = LABEL_HEIGHT + series.length * (BAR_HEIGHT + 2) + ROW_GAP;
  const height = rows.length * rowHeight;
  const description = rows
    .map(
      (row) =>
        `${row.label} : ${row.values.map((value, index) => `${value} (${series[index]})`).join(', ')}`,
    )
    .join(' ; ');
  const drawn = rows.map((row, rowIndex) => {
    const top = rowIndex * rowHeight;
    const bars = row.values.map((value, index) => {
      const y = top + LABEL_HEIGHT + index * (BAR_HEIGHT + 2);
      const width = Math.max(value > 0 ? 2 : 0, Math.round(value * scale));
      return html`<rect class="chart-series-${index}" x="0" y="${y}" width="${width}" height="${BAR_HEIGHT}"></rect><text class="chart-number" x="${width + 4}" y="${y + BAR_HEIGHT - 3}">${value}</text>`;
    });
    return html`<text class="chart-label" x="0" y="${top + LABEL_HEIGHT - 5}">${fitted(row.label)}</text>${bars}`;
  });
  return html`<figure class="chart">
<svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title id="${id}-title">${title}</title><desc id="${id}-desc">${description}</desc>${drawn}</svg>
<figcaption class="chart-legend">${series.map((name, index) => html`<span class="chart-key"><span class="chart-swatch chart-series-${index}"></span>${name}</span> `)}</figcaption>
</figure>`;
}
