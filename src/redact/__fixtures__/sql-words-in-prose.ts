/**
 * Ordinary sentences that use SQL's verbs as English (`delete from`, `update the`, `select all`,
 * `insert into`, `create`, `drop`, `with … as`, `call`): business rules, UI hints and storage errors a
 * model needs to read. A statement has the shape of one (a clause after the table, a quoted or
 * qualified name, a column list); a verb phrase in a sentence does not.
 */

import type { BenignMessage } from './benign-messages.js';

export const SQL_WORDS_IN_PROSE_MESSAGES: readonly BenignMessage[] = [
  { message: 'Cannot delete from archive' },
  { message: 'Could not delete from cache' },
  { message: 'Items older than 90 days cannot be deleted; you may only delete from drafts' },
  { message: 'Unable to delete from trash' },
  { message: 'Delete from archive' },
  { message: 'You are not allowed to delete from this folder; ask an owner to delete from shared' },
  { message: 'Failed to update the subscription: card expired' },
  { message: 'Please update the address, then set it as default' },
  { message: 'Update the plan first; set the quantity = 2 afterwards' },
  { message: 'Select all, then remove the duplicates from your basket' },
  { message: 'Select all rows from the table and try again' },
  { message: 'To merge, select two contacts from the list' },
  { message: 'Select items from the catalogue where the price is shown in EUR' },
  { message: 'Press Ctrl+A to select all' },
  { message: 'Select one, two or three seats from the seat map' },
  { message: 'Insert into cart failed (item no longer available)' },
  { message: 'Insert into cart (max 5 per customer) was refused' },
  { message: 'Select red, green or blue from the palette' },
  { message: 'Remove the voucher, then delete from favourites' },
  { message: 'Create table booking for 6 people: no table is free at 20:00' },
  { message: 'Cannot drop table 4 from the reservation while guests are seated' },
  { message: 'Call support (24/7) to unlock your account' },
  { message: 'Share with friends as (optional) a gift' },
  { message: 'Replace into slot 3 is not allowed: slot is locked' },
  { message: 'Select 2 or more files to compare' },
  { message: 'Please select 1 option' },
  { message: 'Select file(s) to upload' },
];
