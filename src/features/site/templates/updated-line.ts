const LONG_DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' });

/** "Mise à jour le 18 novembre 2026": readers and crawlers see how fresh a page is. */
export function updatedLine(day: string): string {
  return `<p class="updated">Mise à jour le <time datetime="${day}">${LONG_DATE.format(new Date(`${day}T00:00:00Z`))}</time></p>`;
}
