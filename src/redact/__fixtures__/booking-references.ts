/**
 * Booking references, record locators, voucher and confirmation codes: random-looking by design, and
 * exactly what a model needs to quote back to the user. Those that start with two letters and two
 * digits have an IBAN's outline, and about one in 97 passes the IBAN check digits by chance; the
 * country code and the length an IBAN of that country has tell them apart.
 */

import type { BenignMessage } from './benign-messages.js';

export const BOOKING_REFERENCE_MESSAGES: readonly BenignMessage[] = [
  { message: 'Gift voucher DV98 7G94 1K5T F50B has already been redeemed' },
  { message: 'Voucher PZ51 L009 EWRH E049 is not valid for this route' },
  { message: 'Promo code JX90 72VA 43DP 6JV9 expired on 2024-12-31' },
  { message: 'Booking reference LW50 66RN ENH3 5R27 was not found' },
  { message: 'Confirmation code EF83 A05U N01G 4S1F belongs to another customer' },
  { message: 'Hotel booking BR43 24E7 8ZR6 J1RC cannot be cancelled free of charge' },
  { message: 'Tour booking DJ01 8QKS 5242 HXTR UV4P is already checked in' },
  { message: 'Event ticket ZE62 6H83 CMB8 RD3D 7CFE was transferred to another attendee' },
  { message: 'Season pass code XC16 16G3 4XFP J3N8 6A0U is limited to one device' },
  { message: 'Order voucher KR62 9MZA V3S3 VW7X V62X: balance is 0.00 EUR' },
  { message: 'Rail booking ef83a05un01g4s1f: seat reservation not possible on this train' },
  { message: 'Trip br4324e78zr6j1rc has no refundable segments' },
  { message: 'Itinerary vs43vwm68b72va43 was changed by the airline' },
  { message: 'Reservation yg4419p6b7ha6tj2 is on hold until payment' },
  { message: 'Ferry booking TW69 K3TT 3P5Z 1391 cannot be amended within 24 hours of departure' },
  { message: 'Cabin booking RH18 B9P9 DPD6 2925 exceeds the passenger limit' },
  { message: 'Car hire confirmation KZ93 40LF NKZ1 7776: driver must be 25 or older' },
  { message: 'Parking booking SB66 AS1M 76DW 5083 starts after it ends' },
  { message: 'Booking reference QW25 AHEX 2R4M 4921 has already been used to check in' },
  { message: 'Group booking HH75 09K2 VWCX 3427 needs at least 10 passengers' },
  { message: 'PNR X7QKZB is cancelled; rebook on LH 441' },
  { message: 'Record locator 1A/QXZ7KP: ticketing deadline passed' },
  { message: 'Your confirmation number is HMQ4K8ZT2X.' },
  { message: 'Booking XKQJZP could not be split: infants must travel with an adult' },
];
