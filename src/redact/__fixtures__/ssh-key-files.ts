/**
 * OpenSSH, ssh-add, ssh-keygen and tools that wrap them (git, Ansible, CI actions) naming a key file
 * in quotes after `key`: `Load key "deploy_key": invalid format`. The quoted word is a file name the
 * user chose, which the model needs in order to say which file is wrong; it is not a database key or a
 * secret. (A quoted path is still a path, and is redacted as one.)
 */

import type { BenignMessage } from './benign-messages.js';

export const SSH_KEY_FILE_MESSAGES: readonly BenignMessage[] = [
  { message: 'Load key "deploy_key": invalid format' },
  { message: 'Load key "id_ed25519": bad permissions' },
  { message: 'Load key "github_actions_key": error in libcrypto' },
  { message: 'Load key "staging.pem": incorrect passphrase supplied to decrypt private key' },
  { message: 'Load key "ci-runner-key": Permission denied' },
  { message: 'Load key "./deploy_key": No such file or directory' },
  { message: 'Error loading key "deploy_key": invalid format' },
  { message: 'Error loading key "(stdin)": error in libcrypto' },
  { message: 'Error loading key "id_rsa_backup": incorrect passphrase supplied to decrypt private key' },
  { message: "Enter passphrase for key 'deploy_key':" },
  { message: "Enter passphrase for key 'id_ed25519_sk': Permission denied (publickey)." },
  { message: 'Saving key "new_deploy_key" failed: Permission denied' },
  { message: 'Saving key "ansible_ed25519" failed: No such file or directory' },
  { message: 'ssh-keygen: Load key "mirror_key": invalid format' },
  { message: 'Warning: Load key "bastion_key" failed, trying the next identity' },
  {
    message:
      'git fetch failed: Load key "repo_deploy_key": invalid format. Make sure the key has a newline at the end.',
  },
  { message: 'fatal: Load key "release-signing-key": error in libcrypto' },
  { message: 'webfactory/ssh-agent: Error loading key "key-0": invalid format' },
  { message: 'Failed to add identity: Load key "backup_ed25519": invalid format' },
  { message: 'Load key "terraform_ed25519": invalid format (did you paste the public key?)' },
  { message: 'Load key "id_ecdsa": unknown or unsupported key type' },
  { message: "Enter passphrase for key 'release_key' (attempt 2 of 3):" },
];
