// Unicode's mixed-script detection (UTS #39, section 5) for aliases: an alias whose letters are not
// all of one script ('Ñоqui' with a Cyrillic 'о' beside a Latin 'Ñoqui') passes for another. Built
// on the regular expressions' own Script_Extensions property, so it follows the engine's Unicode.

// Every script with letters, by ISO 15924 code (Common, Inherited and Unknown left out). The
// engine may not know the newest (an older browser): those are skipped where it does not.
const SCRIPTS = `
  Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi Buhd
  Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi
  Gara Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng
  Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb
  Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Miao Mlym Modi Mong Mroo
  Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm
  Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt
  Sind Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu
  Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi
  Yiii Zanb
`.trim().split(/\s+/);

// Augmented script sets (UTS #39 5.1): Han is also written in Japanese, Korean and Han with
// Bopomofo; kana only in Japanese; Hangul only in Korean.
const AUGMENTED: Record<string, string[]> = {
  Hani: ['Hanb', 'Jpan', 'Kore'],
  Hira: ['Jpan'],
  Kana: ['Jpan'],
  Hang: ['Kore'],
  Bopo: ['Hanb'],
};
// Highly Restrictive (UTS #39 5.2): Latin beside one of these is how those languages are written.
const WITH_LATIN = ['Jpan', 'Kore', 'Hanb'];

const COMMON = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;
const LATIN_OR_COMMON = /^[\p{scx=Latn}\p{scx=Zyyy}\p{scx=Zinh}]*$/u;

let tests: Array<[string, RegExp]> | undefined;
const scriptTests = () =>
  (tests ??= SCRIPTS.flatMap((code): Array<[string, RegExp]> => {
    try {
      return [[code, new RegExp(`^\\p{scx=${code}}$`, 'u')]];
    } catch {
      return [];
    }
  }));

const setsByCharacter = new Map<string, ReadonlySet<string>>();
/** A character's augmented script set; undefined for Common and Inherited (digits, '-', accents). */
function scriptsOf(character: string): ReadonlySet<string> | undefined {
  if (COMMON.test(character)) return undefined;
  let scripts = setsByCharacter.get(character);
  if (!scripts) {
    const codes = scriptTests().filter(([, test]) => test.test(character)).map(([code]) => code);
    scripts = new Set(codes.flatMap((code) => [code, ...(AUGMENTED[code] ?? [])]));
    if (setsByCharacter.size < 10_000) setsByCharacter.set(character, scripts);
  }
  return scripts;
}

/**
 * Whether a text's letters are of one script (its resolved script set is not empty), or Latin
 * beside Japanese, Korean or Chinese with Bopomofo, as those languages write: UTS #39's 'Highly
 * Restrictive' level. 'Ñoquis', '東京', 'пример' and '東京Tower' pass; 'Ñоqui' (Cyrillic 'о') does not.
 */
export function isSingleScript(text: string): boolean {
  if (LATIN_OR_COMMON.test(text)) return true;
  const sets = [...text].map(scriptsOf).filter((scripts) => scripts !== undefined);
  const [first, ...rest] = sets;
  if (!first) return true;
  if ([...first].some((script) => rest.every((scripts) => scripts.has(script)))) return true;
  return WITH_LATIN.some((script) => sets.every((scripts) => scripts.has('Latn') || scripts.has(script)));
}
