/** A relative time for a future or past ISO instant: "in 3 h", "5 min ago". */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const magnitude = Math.abs(seconds);
  const [value, unit] =
    magnitude < 60
      ? [magnitude, 's']
      : magnitude < 3600
        ? [Math.round(magnitude / 60), 'min']
        : magnitude < 172800
          ? [Math.round(magnitude / 3600), 'h']
          : [Math.round(magnitude / 86400), 'd'];
  // Under half a second either way is now (Math.round gives -0 for a moment just past, and -0 >= 0).
  if (seconds === 0) return 'now';
  return seconds > 0 ? `in ${value} ${unit}` : `${value} ${unit} ago`;
}
