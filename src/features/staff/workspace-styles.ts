/** The workspace's few rules on top of the site's stylesheet (same colours, same contrast rules). */
export const WORKSPACE_CSS = `
.workspace-notice {
  border-block: 2px solid #b45309;
  background: #fff7ed;
}
.workspace-notice p {
  display: flex;
  gap: 0.25rem;
  margin-block: 0;
  padding-block: 0.625rem;
  font-size: 0.9375rem;
  line-height: 1.5;
  white-space: nowrap;
}
.workspace-notice span {
  overflow: hidden;
  text-overflow: ellipsis;
}
.workspace-notice a {
  font-weight: 700;
}
.workspace-main {
  padding-block: 1.5rem 3rem;
}
.staff-who {
  margin: 0;
  color: var(--muted);
  font-size: 0.9375rem;
}
.workspace-nav ul {
  flex-wrap: wrap;
  gap: 0.25rem 1.25rem;
  padding-bottom: 0.5rem;
}
.workspace-nav a,
.workspace-nav .link-button {
  font-size: 0.9375rem;
}
.inline-form {
  display: inline;
  margin: 0;
}
.link-button {
  padding: 0.5rem 0;
  border: 0;
  background: none;
  color: var(--accent);
  font: inherit;
  font-weight: 700;
  text-decoration: underline;
  cursor: pointer;
}
.link-button:hover {
  background: none;
  color: var(--accent-dark);
}
.narrow {
  max-width: 30rem;
}
.notice {
  padding: 0.75rem 1rem;
  border-left: 4px solid var(--accent);
  background: var(--soft);
}
.secret {
  font-family: ui-monospace, Menlo, Consolas, monospace;
  overflow-wrap: anywhere;
}
/* Its visually hidden labels stay inside it instead of widening the page on a phone. */
.table-scroll {
  position: relative;
}
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
.actions {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
}
/* The dashboard's charts (bar-chart.ts): the site's accent for this week, its muted ink for the last. */
.dashboard-figures li {
  margin-block: 0.5rem;
}
.dashboard-pair {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr));
  gap: 1rem 2rem;
}
.chart {
  margin: 1rem 0;
}
.chart svg {
  max-width: 100%;
  height: auto;
}
.chart-label,
.chart-number {
  fill: var(--ink);
  font-size: 13px;
}
.chart-series-0 {
  fill: var(--accent);
  background: var(--accent);
}
.chart-series-1 {
  fill: var(--muted);
  background: var(--muted);
}
.chart-legend {
  font-size: 0.9375rem;
}
.chart-key {
  margin-right: 1rem;
  white-space: nowrap;
}
.chart-swatch {
  display: inline-block;
  width: 0.875rem;
  height: 0.875rem;
  margin-right: 0.375rem;
  vertical-align: -0.0625rem;
}
`;
