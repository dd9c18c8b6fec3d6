/**
 * Validation issues whose field is named like a secret (`password`, `token`, `apiKey`, `client_secret`)
 * in `field: message` form, as schema libraries word them: zod (v3 and v4), yup and class-validator
 * (which repeat the field's name), Joi, pydantic, ajv, valibot, io-ts, Hibernate Validator, Symfony,
 * Laravel, express-validator, in English and other languages. The word after the colon starts a message
 * about the field, not its value.
 */

import type { BenignMessage } from './benign-messages.js';

export const VALIDATION_FIELD_NAME_MESSAGES: readonly BenignMessage[] = [
  { message: 'password: String must contain at least 12 character(s)' },
  { message: 'pin: String must contain exactly 4 character(s)' },
  { message: 'apiKey: String must contain at most 64 character(s)' },
  { message: 'token: Required' },
  { message: 'secret: Expected string, received number' },
  { message: 'recoveryCodes: Array must contain at least 8 element(s)' },
  { message: 'passwordMinLength: Number must be greater than or equal to 12' },
  { message: 'password: Too small: expected string to have >=12 characters' },
  { message: 'password: password must be at least 8 characters' },
  { message: 'confirmPassword: confirmPassword is a required field' },
  { message: 'apiKey: apiKey should not be empty' },
  { message: 'client_secret: client_secret must be longer than or equal to 32 characters' },
  { message: 'body.password: String should have at least 12 characters' },
  { message: 'password: Field required' },
  { message: 'api_key: Input should be a valid string' },
  { message: 'token: Extra inputs are not permitted' },
  { message: 'password: Ensure this field has at least 8 characters.' },
  { message: 'secret_key: Length must be at least 32 characters long' },
  { message: 'password: size must be between 12 and 128' },
  { message: 'password: This value is too short. It should have 12 characters or more.' },
  { message: 'password: The password field must be at least 12 characters.' },
  { message: 'password: Invalid length: Expected >=12 but received 7' },
  { message: 'token: string expected, got undefined' },
  { message: 'password: Le mot de passe doit contenir au moins 12 caractères' },
  { message: 'password: Die Eingabe muss mindestens 12 Zeichen lang sein' },
  { message: 'password: El campo debe tener al menos 12 caracteres' },
];
