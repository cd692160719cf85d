/**
 * The brand colour and the shades the stylesheet derives from it (docs/site.md, "Design"). WCAG 2.2
 * AA asks 4.5:1 for text: the colour is the buttons' background under white text and the links'
 * colour on white, so one check against white covers both.
 */
export const MIN_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: number[]): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.2 relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, from 1 (same colour) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `weight` of `other` mixed into `hex`. */
function mix(hex: string, other: string, weight: number): string {
  const [a, b] = [channels(hex), channels(other)];
  return toHex(a.map((channel, index) => channel * (1 - weight) + b[index]! * weight));
}

/** The stylesheet's three brand shades: the colour, its hover (darker), its soft tile (paler). */
export function brandShades(hex: string): { accent: string; accentDark: string; soft: string } {
  return {
    accent: hex.toLowerCase(),
    accentDark: mix(hex, '#000000', 0.4),
    soft: mix(hex, '#ffffff', 0.92),
  };
}
