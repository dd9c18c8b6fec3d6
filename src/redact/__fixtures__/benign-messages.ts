/**
 * Harmless business and validation messages, in several languages, that a model needs to read as they are.
 * Redaction must leave each unchanged, or change it exactly as `shownAs` documents (and `why` explains).
 */

import { BOOKING_REFERENCE_MESSAGES } from './booking-references.js';
import { SQL_WORDS_IN_PROSE_MESSAGES } from './sql-words-in-prose.js';
import { SSH_KEY_FILE_MESSAGES } from './ssh-key-files.js';
import { VALIDATION_FIELD_NAME_MESSAGES } from './validation-field-names.js';

export interface BenignMessage {
  readonly message: string;
  /** The documented change, when redaction may change the message. */
  readonly shownAs?: string;
  readonly why?: string;
}

export const BENIGN_MESSAGES: readonly BenignMessage[] = [
  // Validation issues in `field: message` form.
  { message: 'password: must be at least 12 characters' },
  { message: 'email: must be a valid email address' },
  { message: 'token: is required' },
  { message: 'token: expired' },
  { message: 'api_key: must not be empty' },
  { message: 'secret: must be at least 32 characters long' },
  { message: 'secret_key: too short (minimum is 32 characters)' },
  { message: 'pin: must be exactly 4 digits' },
  { message: 'quantity: must be greater than 0; email: is not a valid address' },
  { message: 'auth: expected object, received string' },
  { message: 'items.0.price: Expected number, received string' },
  { message: 'name: must not contain digits' },
  { message: 'user.address.zip: must match the pattern of a postal code' },
  { message: 'client_secret: should be a string' },
  { message: 'access_token: cannot be reused' },
  { message: 'password: Passwords do not match' },
  // Plain English business rules.
  { message: 'Password must contain an uppercase letter, a digit and a symbol' },
  { message: 'The passwords do not match' },
  { message: 'Token expired, please sign in again' },
  { message: 'The API key you entered has expired; create a new one in Settings' },
  { message: 'Update status set to SHIPPED is not allowed while the order is unpaid' },
  { message: 'Please update your billing address and set a default payment method' },
  { message: 'Select a delivery date from the calendar' },
  { message: 'Could not delete the item from your cart because it is already reserved' },
  { message: 'Create table reservation for 4 people failed: no tables are free at 19:30' },
  { message: 'Insert a valid coupon code' },
  { message: 'Order 10045 has already been shipped and cannot be cancelled' },
  { message: 'Refund amount 120.50 EUR exceeds the captured amount of 100.00 EUR' },
  { message: 'Invoice INV-2024-00123 is already paid' },
  { message: 'Coupon SUMMER24 expired on 2024-08-31' },
  { message: 'Seat 12A is not available on flight LH 441 on 2024-11-03' },
  { message: 'Firmware 10.2.3.4 is outdated; install version 10.3.0.1 or later' },
  { message: 'Device runs firmware v4.18.2.1207, which does not support OTA updates' },
  { message: 'Client version 2.14.3 is no longer supported; upgrade to 3.0.0' },
  { message: 'Delivery window 14:00–16:00 is fully booked' },
  { message: 'Meeting at 10:30 overlaps with the stand-up at 10:15' },
  { message: 'SKU A-1234 is out of stock in warehouse BER-2' },
  { message: 'Order 3f2504e0-4f89-11d3-9a0c-0305e82c3301 was not found' },
  { message: 'Only 3 of 5 requested seats could be held; try a smaller group' },
  { message: 'The date of birth must be in the past' },
  { message: 'Phone number must start with a country code, for example +44' },
  { message: 'Rate limit: at most 100 requests per minute' },
  { message: 'Temperature 21.5 °C is outside the allowed range of 18–20 °C' },
  { message: 'Shipment weight 32.5 kg exceeds the 30 kg limit for parcels' },
  { message: 'Basic plan does not include API access; upgrade to Pro' },
  { message: 'ISBN 978-3-16-148410-0 is not in the catalogue' },
  { message: 'Barcode 4006381333931 is not registered' },
  { message: 'Section 4.2.1 of the policy requires a manager approval' },
  { message: 'Page 3 of 12: no more results' },
  { message: 'Credit limit of 5,000.00 USD reached for account tier Gold' },
  { message: 'Card ending in 4242 was declined; ask the customer for another payment method' },
  { message: 'Account number must be 8 digits' },
  { message: 'Booking reference ABC123 is invalid' },
  { message: 'Score changed by +15 points after the review' },
  { message: 'Discount of 20% off applies to orders over 50 EUR' },
  { message: 'Call back between 9:00 and 17:00 on weekdays' },
  // German, French, Spanish, Italian, Portuguese, Dutch, Polish, Turkish.
  { message: 'Passwort: muss mindestens 12 Zeichen lang sein' },
  { message: 'Die Bestellung 4711 wurde bereits versendet und kann nicht storniert werden' },
  { message: 'Das Feld „E-Mail“ ist erforderlich' },
  { message: 'mot_de_passe : doit contenir au moins 12 caractères' },
  { message: 'Le montant du remboursement dépasse le montant payé' },
  { message: 'La date de livraison doit être dans le futur' },
  { message: 'contraseña: debe tener al menos 12 caracteres' },
  { message: 'El pedido 1234 ya fue enviado; no se puede cancelar' },
  { message: "L'ordine 5521 è già stato spedito" },
  { message: 'senha: deve ter pelo menos 12 caracteres' },
  { message: 'O cupom VERAO24 expirou em 31/08/2024' },
  { message: 'wachtwoord: moet minstens 12 tekens bevatten' },
  { message: 'Hasło musi mieć co najmniej 12 znaków' },
  { message: 'Şifre en az 12 karakter olmalıdır' },
  // Japanese, Chinese, Korean, Russian, Arabic.
  { message: 'パスワード: 12文字以上である必要があります' },
  { message: '注文 10045 はすでに発送済みです' },
  { message: '订单 10045 已发货，无法取消' },
  { message: '密码：长度至少为 12 个字符' },
  { message: '비밀번호는 12자 이상이어야 합니다' },
  { message: 'пароль: должен содержать не менее 12 символов' },
  { message: 'يجب أن تتكون كلمة المرور من 12 حرفًا على الأقل' },
  // Classes met on unseen text, one file each.
  ...VALIDATION_FIELD_NAME_MESSAGES,
  ...SSH_KEY_FILE_MESSAGES,
  ...SQL_WORDS_IN_PROSE_MESSAGES,
  ...BOOKING_REFERENCE_MESSAGES,
];
