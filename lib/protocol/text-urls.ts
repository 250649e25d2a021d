/**
 * Finding URLs in display text (an elicitation's message, a field's title or description):
 * what a renderer would turn into a link (`http://`, `https://`, and `www.` names, which
 * Markdown renderers link too).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#safe-url-handling
 */

// A run of URL characters after a scheme or "www."; trailing punctuation belongs to the sentence.
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

/** One URL found in a text, with where it starts. */
export interface UrlInText {
  url: string;
  index: number;
}

/** The URLs in `text`, in order. */
export function urlsInText(text: string): UrlInText[] {
  const out: UrlInText[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const url = m[0].replace(TRAILING, '');
    if (/^www\.$/i.test(url) || /^https?:\/\/$/i.test(url)) continue;
    out.push({ url, index: m.index });
  }
  return out;
}
