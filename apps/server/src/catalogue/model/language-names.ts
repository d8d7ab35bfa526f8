/*
 * Languages by their own names (issue 28): a learner may search "Español" or "Deutsch" for
 * the catalogue's Spanish or German. A synonym, not a typo (decision 108 widens typos by
 * trigram similarity, and "espanol" is nowhere near "spanish"), so a search word that is a
 * language's endonym is read as the catalogue's English name. Keys are compared as a search
 * word is, lower-case without accents (key()); the values are words of the catalogue's
 * languages (generator.ts GENERATED_LANGUAGES, "Mandarin Chinese" as "chinese").
 */
const key = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const ENDONYMS = Object.entries({
  espanol: 'spanish',
  castellano: 'spanish',
  francais: 'french',
  deutsch: 'german',
  italiano: 'italian',
  portugues: 'portuguese',
  中文: 'chinese',
  汉语: 'chinese',
  漢語: 'chinese',
  普通话: 'chinese',
  putonghua: 'chinese',
  zhongwen: 'chinese',
  日本語: 'japanese',
  nihongo: 'japanese',
  한국어: 'korean',
  hangugeo: 'korean',
  العربية: 'arabic',
  українська: 'ukrainian',
  ukrainska: 'ukrainian',
  polski: 'polish',
  nederlands: 'dutch',
  turkce: 'turkish',
}).reduce((names, [own, english]) => names.set(key(own), english), new Map<string, string>());

/** A search word as the catalogue's language name when it is one's endonym, else as it is. */
export function languageByOwnName(word: string): string {
  // (the caller caps the text; a word is letters and digits only)
  return ENDONYMS.get(key(word)) ?? word;
}
