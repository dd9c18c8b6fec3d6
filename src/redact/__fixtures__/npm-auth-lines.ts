/**
 * npm registry credentials as npm, yarn and pnpm, CI logs and build tools quote them: `.npmrc` lines
 * (`//host/path/:_authToken=…`, `_auth`, `_password`), the same keys set on a command line or in a
 * `.yarnrc` with a space instead of `=`, printed by `npm config get` on the next line, yarn 2+'s
 * `npmAuthToken` / `npmAuthIdent`, and `npm_` tokens. Every token here is fake; provider-format ones are
 * assembled from parts so that secret scanners do not take this file for a leak.
 */

import { classCases } from './class-cases.js';
import type { HostileErrorMessage } from './hostile-error-messages.js';

const join = (...parts: string[]): string => parts.join('');

const NPM_TOKEN_1 = join('npm', '_', 'Xk29VbLq7TzR4mWc8NpY1sHd6JgF0aEu3KiO');
const NPM_TOKEN_2 = join('npm', '_', 'a7QeT3Lw9ZyB2nMx5VcR8HpK1sDf4GjU6oIt');
const GITHUB_TOKEN = join('ghp', '_', 'Rz8Kq2Lm5Nw7Xc1Vb4Tg9Hy3Ju6Ip0Oa2Sd');
const GITLAB_TOKEN = join('glpat', '-', 'Zx7Cv2Bn5Mq8Wk3Lj9Hp');
const LEGACY_1 = '9c1d5e2a-7f3b-4c8d-a6e1-2b9f0d4c7a53';
const LEGACY_2 = '4e7a2b9c-1d3f-4a6e-8b5c-0f2d9e7a1c34';
const LEGACY_3 = '5f0c2e8a-3b6d-4f1e-9a7c-8d2b4e6f0a19';
const LEGACY_4 = 'b83e1f47-92ac-4d05-be6a-13c7f9d20e58';
const LEGACY_5 = '0d9a7c3e-6b21-4f8d-a5c4-7e1b3f9d2a60';
const LEGACY_6 = 'e2f4a6c8-0b1d-4e3f-8a5c-7d9e1f3b5a72';
const BASE64_AUTH = Buffer.from('ci-publisher:Gr4nite-Ledger-71').toString('base64');
const BASE64_PAT = Buffer.from('x7kq2mz9vw4lr8tn3pb6hd1sy5cf0gje').toString('base64');
const ARTIFACTORY_KEY = join('AKCp', '8kq7Ty2mZ9xLwV4bN1cR6sHf3JdG5pEa0uQiO8tYz2');
const CODEARTIFACT_TOKEN = join('eyJ2ZXIiOjEsImlzdSI6MTcx', 'NjQ5MjAwMCwiZW5jIjoiQTEyOEdDTSJ9abc123XYZ');

const credential = classCases('credential', 'npm registry credential on an .npmrc line');

export const NPM_AUTH_MESSAGES: readonly HostileErrorMessage[] = [
  credential(
    'npm config set with a space, echoed by execa',
    `Command failed with exit code 1: npm config set //registry.npmjs.org/:_authToken ${LEGACY_1}`,
    [LEGACY_1],
  ),
  credential(
    'yarn 1 .yarnrc line, key and value quoted',
    `error An unexpected error occurred: "Failed to parse .yarnrc line 2: \\"//registry.npmjs.org/:_authToken\\" \\"${LEGACY_2}\\"".`,
    [LEGACY_2],
  ),
  credential(
    'yarn config set output',
    `yarn config v1.22.19\nsuccess Set "//registry.acme.internal/:_authToken" to "${LEGACY_3}".\nDone in 0.04s.`,
    [LEGACY_3],
  ),
  credential(
    'npm config get prints the token on the next line',
    `$ npm config get //registry.npmjs.org/:_authToken\n${LEGACY_4}\n$ npm publish\nnpm error code E403`,
    [LEGACY_4],
  ),
  credential(
    'yarn 2 npmAuthIdent with user and password',
    'Usage Error: The npmAuthIdent: "ci-bot:Tr4ck-Release-Pw" setting is deprecated for npm.pkg.github.com',
    ['Tr4ck-Release-Pw', 'ci-bot:Tr4ck'],
  ),
  credential(
    'npm flag form with a space',
    `npm publish --//registry.npmjs.org/:_authToken ${LEGACY_5} --access public exited with 1`,
    [LEGACY_5],
  ),
  credential(
    'yarn 1 .yarnrc _auth line, unquoted',
    `Failed to load .yarnrc: _auth ${BASE64_AUTH} (line 4) is not valid for registry https://npm.acme.io/`,
    [BASE64_AUTH],
  ),
  credential(
    'legacy token starting with an English word',
    '.npmrc line 3: //npm.acme.io/:_authToken=no-reply-7fj3k9Qs ignored: registry unreachable',
    ['no-reply-7fj3k9Qs', '7fj3k9Qs'],
  ),
  credential(
    'Verdaccio token that reads as a sentence start',
    '//verdaccio.acme.lan:4873/:_authToken=the-ci-token-2024-q3 rejected with 401',
    ['the-ci-token-2024-q3', 'ci-token-2024'],
  ),
  credential(
    'pnpm config set echoed by a CI step',
    `##[error]Process completed with exit code 1: pnpm config set //npm.pkg.github.com/:_authToken ${LEGACY_6}`,
    [LEGACY_6],
  ),
  credential(
    '.npmrc quoted in npm error E401',
    `npm error code E401\nnpm error Unable to authenticate, your authentication token seems to be invalid.\nnpm error .npmrc: //registry.npmjs.org/:_authToken=${NPM_TOKEN_1}`,
    [NPM_TOKEN_1],
  ),
  credential(
    'GitHub Packages token in .npmrc',
    `npm warn config //npm.pkg.github.com/:_authToken=${GITHUB_TOKEN} is set but the scope @acme uses another registry`,
    [GITHUB_TOKEN],
  ),
  credential(
    'GitLab registry token in .npmrc',
    `npm error 404 Not Found - PUT https://gitlab.acme.io/api/v4/projects/42/packages/npm/@acme%2fui; .npmrc has //gitlab.acme.io/api/v4/projects/42/packages/npm/:_authToken=${GITLAB_TOKEN}`,
    [GITLAB_TOKEN],
  ),
  credential(
    'Azure Artifacts _password line',
    `npm error code E401 (//pkgs.dev.azure.com/acme/_packaging/web/npm/registry/:_password=${BASE64_PAT})`,
    [BASE64_PAT],
  ),
  credential(
    'Artifactory _auth with spaces around the equals sign',
    `Invalid config in /home/ci/.npmrc: _auth = ${ARTIFACTORY_KEY}; always-auth = true`,
    [ARTIFACTORY_KEY],
  ),
  credential(
    'CodeArtifact token written by aws codeartifact login',
    `npm ERR! 401 Unauthorized - GET https://acme-123456789012.d.codeartifact.eu-west-1.amazonaws.com/npm/web/lodash (//acme-123456789012.d.codeartifact.eu-west-1.amazonaws.com/npm/web/:_authToken=${CODEARTIFACT_TOKEN})`,
    [CODEARTIFACT_TOKEN],
  ),
  credential(
    'granular npm token alone in a lerna error',
    `lerna ERR! E401 [UNAUTHORIZED] publish with token ${NPM_TOKEN_2} failed: token expired`,
    [NPM_TOKEN_2],
  ),
  credential('npm token ending a sentence', `The automation token for @acme/cli is ${NPM_TOKEN_1}.`, [
    NPM_TOKEN_1,
  ]),
  credential(
    'yarn 2 npmAuthToken in .yarnrc.yml',
    `YN0041: │ Invalid authentication (as an anonymous user); .yarnrc.yml npmAuthToken: "${LEGACY_2}"`,
    [LEGACY_2],
  ),
  credential(
    '.npmrc in a Docker build step',
    `#9 ERROR: process "/bin/sh -c echo //registry.npmjs.org/:_authToken=${LEGACY_3} > .npmrc && npm ci" did not complete successfully`,
    [LEGACY_3],
  ),
  credential(
    'bare _authToken line of a project .npmrc',
    `npm warn config _authToken=${LEGACY_4} is not scoped to a registry and will be ignored`,
    [LEGACY_4],
  ),
  credential(
    'yarn 1 .yarnrc always-auth block',
    `Error reading .yarnrc:\n  registry "https://npm.acme.io/"\n  "//npm.acme.io/:_authToken" ${LEGACY_5}\n  always-auth true`,
    [LEGACY_5],
  ),
];
