/**
 * Check digits that tell a real identifier from a number that merely looks like one: a card number passes
 * Luhn, an IBAN passes ISO 7064 mod 97-10, a Chinese resident identity number passes GB 11643. A few
 * lines each, so no library: they decide only whether a run of digits is redacted.
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

/** ISO 13616 IBAN check: the country and check digits moved to the end, letters as 10–35, mod 97 is 1. */
export function passesIbanCheck(iban: string): boolean {
  const compact = iban.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
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
