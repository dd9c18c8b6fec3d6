/**
 * Check digits that tell a real identifier from a number that merely looks like one: a card number passes
 * Luhn, an IBAN has its country's length and passes ISO 7064 mod 97-10, a Chinese resident identity
 * number passes GB 11643. A few lines each, so no library: they decide only whether a run is redacted.
 */

/** Luhn (ISO/IEC 7812) over the digits of `text`; separators are ignored. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * IBAN length by country, from the SWIFT IBAN registry (as ibantools' `countrySpecs` holds it, with the
 * countries that use IBANs outside the registry, and the registry's later additions): a code shaped like
 * an IBAN (a booking reference `LW50 66RN ENH3 5R27`) passes the mod-97 check one time in 97, but rarely
 * with a country that has IBANs and that country's length too.
 */
const IBAN_LENGTHS: ReadonlyMap<string, readonly number[]> = lengthsByCountry([
  [15, 'NO'],
  [16, 'BE'],
  [18, 'DK FI FO GL NL AX FK SD'],
  [19, 'MK SI'],
  [20, 'AT BA EE KZ LT LU XK MN'],
  [21, 'CH HR LI LV'],
  [22, 'BG BH CR DE GB GE IE ME RS VA'],
  [23, 'AE GI IL IQ TL OM SO'],
  [24, 'AD CZ ES MD PK RO SA SE SK TN VG'],
  [25, 'AO CV GW LY MZ PT ST'],
  [26, 'DZ IR IS TR'],
  [27, 'BI BL CF CG CM DJ FR GA GF GP GQ GR IT KM MC MF MG MQ MR NC PF PM RE SM TD TF WF YT'],
  [28, 'AL AZ BF BJ BY CI CY DO GT HN HU LB ML NE NI PL SN SV TG'],
  [29, 'BR EG PS QA UA'],
  [30, 'JO KW MU YE'],
  [31, 'MT SC'],
  [32, 'LC NI'],
  [33, 'RU'],
]);

function lengthsByCountry(table: ReadonlyArray<readonly [number, string]>): Map<string, number[]> {
  const lengths = new Map<string, number[]>();
  for (const [length, countries] of table) {
    for (const country of countries.split(' '))
      lengths.set(country, [...(lengths.get(country) ?? []), length]);
  }
  return lengths;
}

/**
 * ISO 13616 IBAN check: a country that has IBANs and its length, then the country and check digits moved
 * to the end, letters as 10–35, mod 97 is 1.
 */
export function passesIbanCheck(iban: string): boolean {
  const compact = iban.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  if (!IBAN_LENGTHS.get(compact.slice(0, 2))?.includes(compact.length)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

const RESIDENT_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const RESIDENT_ID_CHECK = '10X98765432';

/** GB 11643-1999: the 18th character of a Chinese resident identity number is its check character. */
export function passesResidentIdCheck(id: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (id.charCodeAt(i) - 48) * (RESIDENT_ID_WEIGHTS[i] as number);
  return RESIDENT_ID_CHECK[sum % 11] === (id[17] as string).toUpperCase();
}
