/** A CSS hex colour, `#rgb` or `#rrggbb`: the chroma key's `color`, and what `<liveai-avatar chroma-key>` accepts. */
export const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
