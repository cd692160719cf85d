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
  padding-block: 1rem 3rem;
}
.workspace-main h1 {
  font-size: 1.625rem;
  margin-bottom: 0.75rem;
  overflow-wrap: anywhere;
}
.staff-who {
  margin: 0;
  color: var(--muted);
  font-size: 0.9375rem;
}
/* docs/workspace.md, « Sur un téléphone »: the primary entries and « Menu » on one line; the menu
   (a <details>, no script) opens under them, and from 48rem its entries stand inline. */
.workspace-nav {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0 1rem;
  padding-bottom: 0.25rem;
}
.workspace-nav ul {
  flex-wrap: wrap;
  gap: 0 1rem;
}
.nav-count {
  display: inline-block;
  min-width: 1.5em;
  padding: 0 0.4em;
  border-radius: 1em;
  background: var(--accent);
  color: #fff;
  font-size: 0.8125rem;
  line-height: 1.5;
  text-align: center;
}
.nav-more summary {
  padding-block: 0.5rem;
  font-size: 0.9375rem;
  font-weight: 700;
  cursor: pointer;
}
.nav-more[open] {
  flex-basis: 100%;
}
.nav-more[open] ul {
  flex-direction: column;
  gap: 0;
}
@media (min-width: 48rem) {
  .nav-more summary {
    display: none;
  }
  .nav-more::details-content {
    content-visibility: visible;
    display: contents;
  }
  .nav-more[open] {
    flex-basis: auto;
  }
  .nav-more[open] ul {
    flex-direction: row;
    gap: 0 1rem;
  }
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
/* docs/inbound.md: a stranger's long address, and « À vérifier »'s search under each message. */
.inbound-message {
  overflow-wrap: anywhere;
}
.inline-search input[type='search'] {
  max-width: 100%;
}
.choices {
  padding-left: 0;
  list-style: none;
}
/* Its visually hidden labels stay inside it instead of widening the page on a phone. */
.table-scroll {
  position: relative;
}
/* docs/workspace.md, « La boîte de réception »: the search and three filters in view, the rest
   folded. */
.filters {
  margin-bottom: 0.5rem;
}
.filters-main {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 6.25rem), 1fr));
  gap: 0 0.75rem;
  align-items: end;
}
.filters-main p {
  margin: 0 0 0.5rem;
}
.filters-main label {
  display: block;
  font-size: 0.875rem;
  font-weight: 700;
}
.filters-main select,
.filters-main input {
  width: 100%;
  min-height: 2.5rem;
  padding: 0.25rem 0.4rem;
  font: inherit;
  font-size: 0.9375rem;
}
.filters-main button {
  padding: 0.5rem 1rem;
}
.filter-search {
  grid-column: 1 / -2;
}
/* docs/workspace.md, « La fiche d'un prospect »: who, what, when, the actions and the follow-up
   in one screen. */
.lead-facts p {
  margin-block: 0 0.5rem;
}
.lead-facts .button {
  padding: 0.5rem 0.875rem;
  font-size: 0.9375rem;
}
.follow-up {
  display: flex;
  flex-wrap: wrap;
  gap: 0 0.75rem;
  align-items: end;
}
.follow-up p {
  flex: 1 1 7rem;
  margin: 0 0 0.5rem;
}
.follow-up p:last-child {
  flex: 0 0 auto;
}
.follow-up label {
  display: block;
  font-size: 0.875rem;
  font-weight: 700;
}
.follow-up select {
  width: 100%;
  min-height: 2.5rem;
  font: inherit;
}
.follow-up button {
  padding: 0.5rem 1rem;
}
.timeline form {
  display: inline;
}
/* A record's facts as a summary list (GOV.UK « Summary list »): label above value on a phone, side
   by side where there is room. Every workspace <dl> holds one <dd> per <dt>. */
main dl {
  margin: 0 0 1rem;
}
main dt {
  margin-top: 0.5rem;
  font-weight: 700;
}
main dd {
  margin: 0;
  overflow-wrap: anywhere;
}
@media (min-width: 48rem) {
  main dl {
    display: grid;
    grid-template-columns: minmax(10rem, 18rem) 1fr;
    gap: 0.5rem 1.5rem;
  }
  main dt {
    margin-top: 0;
  }
}
/* The site's inputs fill their box (site.css); a box to tick keeps its own size beside its label. */
input:is([type='checkbox'], [type='radio']) {
  width: 1.25rem;
  height: 1.25rem;
  margin: 0;
  vertical-align: -0.25rem;
  accent-color: var(--accent);
}
.pick label {
  display: inline-block;
  margin-left: 0.375rem;
  padding-block: 0.25rem;
}
@media (min-width: 48rem) {
  .filters-main {
    grid-template-columns: 2fr repeat(3, 1fr) auto;
  }
  .filter-search {
    grid-column: auto;
  }
  .filters-more .filters-main {
    grid-template-columns: repeat(5, 1fr);
  }
}
.filters-more summary {
  font-size: 0.9375rem;
  font-weight: 700;
  color: var(--accent);
  cursor: pointer;
}
.chips {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0.5rem 0;
  padding: 0;
  list-style: none;
}
.chips a {
  display: inline-block;
  padding: 0.125rem 0.75rem;
  border: 1px solid var(--accent);
  border-radius: 1rem;
  font-size: 0.875rem;
  text-decoration: none;
  overflow-wrap: anywhere;
}
.badge {
  display: inline-block;
  padding: 0 0.4em;
  border-radius: 0.25rem;
  background: var(--soft);
  font-size: 0.8125rem;
  font-weight: 700;
}
.badge.overdue {
  background: var(--error);
  color: #fff;
}
.trouble {
  color: var(--error);
}
.card-table caption {
  text-align: left;
  font-weight: 700;
}
.card-table th {
  overflow-wrap: anywhere;
}
.card-table td {
  overflow-wrap: break-word;
}
.card-table small {
  color: var(--muted);
  font-size: 0.875rem;
}
.lead-list {
  margin-top: 0;
}
/* One card per row on a phone: each cell says what it is (scrollingTable and cell). */
@media (max-width: 40rem) {
  .card-table :is(table, tbody, tfoot, tr, th, td, caption) {
    display: block;
  }
  /* Said to screen readers at every width, shown where there is room. */
  .card-table thead,
  .wide-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
  }
  .card-table table {
    margin-block: 0.5rem;
  }
  .card-table tr {
    margin-bottom: 0.5rem;
    padding: 0.375rem 0.75rem;
    border: 1px solid var(--line);
    border-radius: var(--radius);
  }
  .card-table :is(th, td) {
    min-width: 0;
    padding: 0.125rem 0;
    border: 0;
  }
  .card-table td[data-label]::before {
    content: attr(data-label) ' : ';
    color: var(--muted);
    font-weight: 700;
  }
  .card-table td:empty {
    display: none;
  }
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
