/**
 * Azure AD (Entra ID) client secrets with no key name beside them, as tools, SDKs and scripts put them in
 * error text: three characters, a digit, `Q~`, then 31 (older `7Q~`) or 34 (`8Q~`) characters of
 * `[A-Za-z0-9_.~-]`. Most end a sentence, so a full stop (or an ellipsis) follows the secret's last
 * character, which its own alphabet also allows. Every secret here is fake, assembled from parts so that
 * secret scanners do not take this file for a leak.
 */

import { classCases } from './class-cases.js';
import type { HostileErrorMessage } from './hostile-error-messages.js';

const secret = (head: string, marker: string, tail: string): string => [head, marker, tail].join('');

const S1 = secret('lh7', '8Q~', 'uxtiKDOS-usXQG743dS3Dy.1HWqDRhyRiA');
const S2 = secret('lkq', '8Q~', 'u41P3c8J3TBgBK9PVowm1ooFRF7~P1ObEB');
const S3 = secret('JXj', '8Q~', 'xbZXpbBxc2Lti.ypgbPAVjT-2nG_mnIG2s');
const S4 = secret('yp4', '8Q~', 'WIeE7WuhEFjd_B_9ooi~iPOGV-pPuTu6QE');
const S5 = secret('jxp', '7Q~', 'Py9LCQLdPyRDNWC1A5EuMzUZkctvsbU');
const S6 = secret('nz7', '8Q~', 'ZDE6kl7235Daa.fso3srB2lUKLBMuFKtIL');
const S7 = secret('AJ2', '8Q~', 'xXZtZp2rbACCXiLxtZGSbvKq4d6IuG~ixU');
const S8 = secret('lt_', '8Q~', 'EEjTWMpLRlcPeeHqw2D45wrZG7p~Qrc_2o');
const S9 = secret('Dp_', '8Q~', 'CKpG9RrjslNMpmoxv8.J9L~I4aQBTj9VWU');
const S10 = secret('aUD', '7Q~', 'aRwy7NTSQ3MQ.QZ5pYn_QsIylB1HL25');
const S11 = secret('G.W', '8Q~', 'qnWXdI91CmVMxWpx4p8~g6KDUVZFzf4406');
const S12 = secret('AV9', '8Q~', 'zS6eebAqvasy5Hbl5TF8.2sGYU89.sWQWH');
const S13 = secret('mv~', '8Q~', 'aD70V-4lbhLL.TcS9_toci4XNeEecJMXTP');
const S14 = secret('GM2', '8Q~', 'AO9b3dxxR82xkqj6x32SMS~89LjBeNs3yu');
const S15 = secret('CLE', '7Q~', '7xZ95lX7A4xz2ifnurx_z073MqX.k-G');
const S16 = secret('X9V', '8Q~', 'qBN4b.oOdQgzJcOJ2po6j7GJsxxkhlm0Wo');
const S17 = secret('vcX', '8Q~', 'SxfSNeFeGLv7e_AzkSa0Vh7a.tnwiMK-Ju');
const S18 = secret('e0r', '8Q~', 'EYIjj6eRiBq0P2O27SRt.FCsCDpBBkUHf-');
const S19 = secret('ve1', '8Q~', '0fQxgH~MIFndP3Vk68~JvScBug7yRnc8eG');
const S20 = secret('YoA', '8Q~', 'dATZyV5hw~H1NaXBEg-EFG6zwat2Jy2K4D');
const S21 = secret('t07', '8Q~', 'T0ya.8qglaqn1TH4SLPi4uhMAc0G8HNrcB');
const S22 = secret('Z.B', '8Q~', 'wGW9yk8gCeyz.n_.HzU_.YSByn9EcKg681');
const S23 = secret('4km', '8Q~', 'L7_2k_2s-yE1hGW6rvc.S8pMyNCTORZJAS');

const credential = classCases('credential', 'azure AD client secret without a key name');

export const AZURE_CLIENT_SECRET_MESSAGES: readonly HostileErrorMessage[] = [
  credential(
    'MSAL retry note ending the sentence',
    `AADSTS7000215: Invalid client secret provided. The app retried with the previous value ${S1}.`,
    [S1],
  ),
  credential(
    'rotation script, new value stored nowhere',
    `Credential rotation for app "billing-sync" failed after Azure returned ${S2}.`,
    [S2],
  ),
  credential(
    'az CLI output echoed by a wrapper',
    `az ad app credential reset succeeded but Key Vault write failed; the new credential is ${S3}.`,
    [S3],
  ),
  credential(
    'Terraform provider diagnostic',
    `Error: updating application password: the value ${S4} could not be written to state.`,
    [S4],
  ),
  credential(
    'legacy 7Q~ secret in a PowerShell error',
    `Connect-MgGraph : ClientSecretCredential authentication failed for ${S5} (tenant contoso).`,
    [S5],
  ),
  credential(
    'Go SDK error with the secret last',
    `azidentity: ClientSecretCredential: unable to get token, secret in use: ${S6}.`,
    [S6],
  ),
  credential(
    'Node tool quoting what it sent',
    `Graph call refused (401). We authenticated as 3f2c9a1e-5b7d-4e2a-9c1f-8d6b4a2e0c7f using ${S7}.`,
    [S7],
  ),
  credential('ellipsis after the secret', `Token request timed out while sending ${S8}...`, [S8]),
  credential('secret at the end of a German message', `Anmeldung fehlgeschlagen: Der Wert ${S9}.`, [S9]),
  credential('legacy 7Q~ secret in parentheses', `The credential (${S10}) expired on 2024-06-30.`, [S10]),
  credential(
    'Python traceback line with the secret last',
    `azure.core.exceptions.ClientAuthenticationError: ClientSecretCredential.get_token failed for ${S11}.`,
    [S11],
  ),
  credential(
    'GitHub Actions log line',
    `##[error]azure/login failed. Service principal 0d4e1f2a-7b3c-4d5e-8f9a-1b2c3d4e5f6a rejected ${S12}.`,
    [S12],
  ),
  credential(
    'secret followed by two sentences',
    `Secret ${S13}. It expired yesterday. Create a new one in the portal.`,
    [S13],
  ),
  credential(
    'Spring Boot startup failure',
    `APPLICATION FAILED TO START: the OAuth2 client "graph" could not authenticate with ${S14}.`,
    [S14],
  ),
  credential(
    'legacy 7Q~ secret after an equals sign with no name',
    `Using =${S15} from the environment; AADSTS7000222: the provided client secret keys are expired.`,
    [S15],
  ),
  credential('French message', `Échec de l'authentification : l'application a envoyé ${S16}.`, [S16]),
  credential('secret ending with a dash, then a full stop', `MSAL.NET: AADSTS7000215 for ${S18}.`, [S18]),
  credential('secret with tildes, then an ellipsis', `Retrying token acquisition with ${S19}…`, [S19]),
  credential('one word and the secret', `Rejected: ${S20}.`, [S20]),
  credential(
    'secret on its own line after a header',
    `Client credentials flow failed.\nValue sent:\n${S21}.\nCheck the app registration.`,
    [S21],
  ),
  credential('secret with dots, closing a question', `Did you mean to send ${S22}?`, [S22]),
  credential('Markdown report row', `| sp-deploy | ${S23}. | expired |`, [S23]),
  credential(
    'secret followed by a full stop inside quotes',
    `Loaded "${S17}." from the pipeline variable group; AADSTS7000215.`,
    [S17],
  ),
];
