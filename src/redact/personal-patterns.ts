/**
 * Personal data: card numbers (Luhn) and card security codes, IBANs (mod 97), US social security
 * numbers, Chinese resident identity numbers (their check character), phone numbers in international
 * form, mainland Chinese mobile numbers and the names beside them, and email addresses in any script.
 */

import { passesIbanCheck, passesLuhn, passesResidentIdCheck } from './checksums.js';
import { CHINESE_PERSONAL_PATTERNS } from './chinese-personal-patterns.js';
import {
  containsAny,
  containsAnyIgnoringCase,
  hasDigits,
  IDENTIFIER_DIGITS,
  type RedactionPattern,
} from './redaction-pattern.js';

const mayHoldIdentifier = (text: string): boolean => hasDigits(text, IDENTIFIER_DIGITS);
const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** 14 to 19 digits starting 2–6 (the card networks) that pass Luhn. */
function isCardNumber(match: string): number {
  const digits = digitsOf(match);
  return digits.length >= 14 && digits.length <= 19 && /^[2-6]/.test(digits) && passesLuhn(digits)
    ? match.length
    : 0;
}

/** An IBAN that passes its check, or does once a trailing word that was taken for its last group is dropped. */
function ibanLength(match: string): number {
  if (passesIbanCheck(match.replace(/ /g, ''))) return match.length;
  const lastSpace = match.lastIndexOf(' ');
  return lastSpace > 0 && passesIbanCheck(match.slice(0, lastSpace).replace(/ /g, '')) ? lastSpace : 0;
}

/** A phone number has 8 to 15 digits (E.164), the country code included. */
function isPhoneNumber(match: string): number {
  const count = digitsOf(match).length;
  return count >= 8 && count <= 15 ? match.length : 0;
}

const SSN_PARTS = String.raw`(?!000|666|9\d\d)\d{3}([ -])(?!00)\d{2}\1(?!0000)\d{4}`;

export const PERSONAL_PATTERNS: readonly RedactionPattern[] = [
  // Email addresses, local part and domain in any script (`jürgen@müller-bau.de`, `用户@例子.广告`).
  {
    kind: 'email',
    pattern:
      /(?<![\p{L}\p{N}_.+%-])[\p{L}\p{N}_.+%-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}[\p{L}\p{N}-]*/gu,
    mayMatch: containsAny('@'),
  },
  // Chinese resident identity number: region, birth date, sequence, check character.
  {
    kind: 'id',
    pattern:
      /(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])/g,
    mayMatch: mayHoldIdentifier,
    confirm: (match) => (passesResidentIdCheck(match) ? match.length : 0),
  },
  {
    kind: 'card',
    pattern: /(?<![\w-])\d(?:[ -]?\d){13,18}(?![\w-])/g,
    mayMatch: mayHoldIdentifier,
    confirm: isCardNumber,
  },
  // A card's security code after its name: `cvc 737`, `CVV2: 123`, `"cvc":"321"`, `security code 4567`.
  {
    kind: 'card',
    pattern: /(?<pre>\b(?:cvv2?|cvc2?|csc|security code)["']?[ \t]*[:=]?[ \t]*["']?)\d{3,4}(?![\d])/gi,
    mayMatch: containsAnyIgnoringCase('cvv', 'cvc', 'csc', 'security code'),
  },
  {
    kind: 'iban',
    pattern:
      /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?=(?:[A-Za-z ]{0,30}\d){6})(?:[A-Za-z0-9]{11,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,4})?)(?![A-Za-z0-9])/g,
    mayMatch: mayHoldIdentifier,
    confirm: ibanLength,
  },
  // US social security numbers: 123-45-6789 or 123 45 6789 (never 000, 666 or 9xx, 00, 0000), or 9
  // digits right after the label.
  {
    kind: 'id',
    pattern: new RegExp(
      String.raw`(?<![\w-])${SSN_PARTS}(?![\w-])|(?<pre>\b(?:SSN|social security(?: number)?)["']?[ \t]*[:=#]?[ \t]*["']?)\d{9}(?!\d)`,
      'gi',
    ),
    mayMatch: mayHoldIdentifier,
  },
  // Phone numbers in international form: +CC or 00CC, then groups of digits.
  {
    kind: 'phone',
    pattern:
      /(?<![\w+])(?=[+0])(?=(?:[ .()+-]{0,3}\d){8})(?:\+[1-9]\d{0,2}|00[1-9]\d{0,2}(?=[ .-]))(?:[ .-]?\(?\d{1,4}\)?){1,6}(?![\w])/g,
    mayMatch: mayHoldIdentifier,
    confirm: isPhoneNumber,
  },
  ...CHINESE_PERSONAL_PATTERNS,
];
