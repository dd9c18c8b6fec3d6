import { type Args, arg, type BfclApi, type Method, PythonError, required, splitLines } from './bfcl-api.js';

/** A file: its name and its text. */
class File {
  constructor(
    readonly name: string,
    public content: string,
  ) {}
}

/**
 * A directory. `contents` keeps insertion order (a Python dict); a moved or copied directory shares the
 * map with its source, as the Python class does (`contents = item.contents` / `.copy()`).
 */
class Directory {
  constructor(
    readonly name: string,
    readonly parent: Directory | undefined,
    public contents: Map<string, File | Directory> = new Map(),
  ) {}

  addFile(name: string, content = ''): void {
    if (this.contents.has(name))
      throw new PythonError('ValueError', `File '${name}' already exists in directory '${this.name}'.`);
    this.contents.set(name, new File(name, content));
  }

  addDirectory(name: string): Directory {
    if (this.contents.has(name))
      throw new PythonError('ValueError', `Directory '${name}' already exists in directory '${this.name}'.`);
    const made = new Directory(name, this);
    this.contents.set(name, made);
    return made;
  }

  getItem(name: string): File | Directory | undefined {
    return name === '.' ? this : this.contents.get(name);
  }
}

/** One node of `initial_config.GorillaFileSystem.root`. */
type Node =
  | { readonly type: 'file'; readonly content: string }
  | { readonly type: 'directory'; readonly contents: Readonly<Record<string, Node>> };

const INVALID_NAME = /[|/\\?%*:"><]/;

/**
 * BFCL's GorillaFileSystem: one tree, one current directory; every path argument is local to it. The
 * root is the one directory under `root` in the scenario (its name shows in `pwd`).
 */
export class GorillaFileSystem implements BfclApi {
  readonly #root: Directory;
  #current: Directory;

  constructor(scenario: { readonly root?: Readonly<Record<string, Node>> } = {}) {
    const top = Object.entries(scenario.root ?? {})[0];
    if (top === undefined || top[1].type !== 'directory') this.#root = new Directory('/', undefined);
    else this.#root = load(top[1].contents, new Directory(top[0], undefined));
    this.#current = this.#root;
  }

  readonly methods: Readonly<Record<string, Method>> = {
    pwd: () => this.pwd(),
    ls: (args) => this.ls(arg(args, 'a', false)),
    cd: (args) => this.cd(required(args, 'folder')),
    mkdir: (args) => this.mkdir(required(args, 'dir_name')),
    touch: (args) => this.touch(required(args, 'file_name')),
    echo: (args) => this.echo(required(args, 'content'), arg(args, 'file_name', null)),
    cat: (args) => this.cat(required(args, 'file_name')),
    find: (args) => this.find(arg(args, 'path', '.'), arg(args, 'name', null)),
    wc: (args) => this.wc(required(args, 'file_name'), arg(args, 'mode', 'l')),
    sort: (args) => this.withFile('sort', args, (file) => ({ sorted_content: sortLines(file.content) })),
    grep: (args) => this.grep(args),
    du: (args) => this.du(arg(args, 'human_readable', false)),
    tail: (args) => this.tail(required(args, 'file_name'), arg(args, 'lines', 10)),
    diff: (args) => this.diff(required(args, 'file_name1'), required(args, 'file_name2')),
    mv: (args) => this.mv(required(args, 'source'), required(args, 'destination')),
    rm: (args) => this.rm(required(args, 'file_name')),
    rmdir: (args) => this.rmdir(required(args, 'dir_name')),
    cp: (args) => this.cp(required(args, 'source'), required(args, 'destination')),
  };

  /** The path from the root, the root's own name included (the Python loop never meets its stop test). */
  pwd(): unknown {
    const path: string[] = [];
    for (let dir: Directory | undefined = this.#current; dir !== undefined; dir = dir.parent)
      path.push(dir.name);
    return { current_working_directory: `/${path.reverse().join('/')}` };
  }

  ls(all: boolean): unknown {
    const names = [...this.#current.contents.keys()];
    return { current_directory_content: all ? names : names.filter((name) => !name.startsWith('.')) };
  }

  cd(given: string): unknown {
    let folder = given.replace(/\/+$/, '');
    if (folder === '') folder = '/';
    if (!['.', '..', '/'].includes(folder) && folder.includes('/'))
      return { error: `cd: ${folder}: Unsupported path. Only one folder level at a time is supported.` };
    if (folder === '..') {
      if (this.#current.parent !== undefined) this.#current = this.#current.parent;
      else if (this.#current === this.#root)
        return { error: 'Current directory is already the root. Cannot go back.' };
      else return { error: 'cd: ..: No such directory' };
      return {};
    }
    const target = this.#navigate(folder);
    if (!(target instanceof Directory)) return target;
    this.#current = target;
    return { current_working_directory: target.name };
  }

  mkdir(name: string): unknown {
    if (INVALID_NAME.test(name))
      return { error: `mkdir: cannot create directory '${name}': Invalid character` };
    if (this.#current.contents.has(name))
      return { error: `mkdir: cannot create directory '${name}': File exists` };
    this.#current.addDirectory(name);
    return null;
  }

  touch(name: string): unknown {
    if (INVALID_NAME.test(name)) return { error: `touch: cannot touch '${name}': Invalid character` };
    if (this.#current.contents.has(name)) return { error: `touch: cannot touch '${name}': File exists` };
    this.#current.addFile(name);
    return null;
  }

  echo(content: string, name: string | null): unknown {
    if (name === null) return { terminal_output: content };
    if (INVALID_NAME.test(name)) return { error: `echo: cannot write to '${name}': Invalid character` };
    if (name === '') return { terminal_output: content };
    const item = this.#current.contents.get(name);
    if (item === undefined) return { error: `echo: cannot write to '${name}': No such file` };
    if (item instanceof Directory)
      throw new PythonError('AttributeError', "'Directory' object has no attribute '_write'");
    item.content = content;
    return null;
  }

  cat(name: string): unknown {
    if (INVALID_NAME.test(name)) return { error: `cat: '${name}': Invalid character` };
    const item = this.#current.contents.get(name);
    if (item === undefined) return { error: `cat: '${name}': No such file or directory` };
    if (item instanceof Directory) return { error: `cat: '${name}': Is a directory` };
    return { file_content: item.content };
  }

  find(path: string, name: string | null): unknown {
    const target = this.#navigate(path);
    if (!(target instanceof Directory)) {
      const message = typeof target.error === 'string' ? target.error : '';
      return message.startsWith('cd:') ? { error: message.replace('cd:', 'find:') } : target;
    }
    const matches: string[] = [];
    const search = (directory: Directory, base: string): void => {
      for (const [itemName, item] of directory.contents) {
        const itemPath = `${base}/${itemName}`;
        if (name === null || itemName.includes(name)) matches.push(itemPath);
        if (item instanceof Directory) search(item, itemPath);
      }
    };
    search(target, path.replace(/\/+$/, ''));
    return { matches };
  }

  wc(name: string, mode: string): unknown {
    if (!['l', 'w', 'c'].includes(mode)) return { error: `wc: invalid mode '${mode}'` };
    const item = this.#current.contents.get(name);
    if (!(item instanceof File)) return { error: `wc: ${name}: No such file or directory` };
    switch (mode) {
      case 'l':
        return { count: splitLines(item.content).length, type: 'lines' };
      case 'w':
        return { count: item.content.split(/\s+/).filter((word) => word !== '').length, type: 'words' };
      default:
        // Python counts code points.
        return { count: [...item.content].length, type: 'characters' };
    }
  }

  grep(args: Args): unknown {
    const pattern = required<string>(args, 'pattern');
    return this.withFile('grep', args, (file) => ({
      matching_lines: splitLines(file.content).filter((line) => line.includes(pattern)),
    }));
  }

  du(humanReadable: boolean): unknown {
    const size = (item: File | Directory): number =>
      item instanceof File
        ? Buffer.byteLength(item.content, 'utf8')
        : [...item.contents.values()].reduce((sum, child) => sum + size(child), 0);
    let total = size(this.#current);
    if (!humanReadable) return { disk_usage: `${total} bytes` };
    for (const unit of ['B', 'KB', 'MB', 'GB', 'TB']) {
      if (total < 1024) return { disk_usage: `${total.toFixed(2)} ${unit}` };
      total /= 1024;
    }
    return { disk_usage: `${total.toFixed(2)} PB` };
  }

  tail(name: string, lines: number): unknown {
    const item = this.#current.contents.get(name);
    if (!(item instanceof File)) return { error: `tail: ${name}: No such file or directory` };
    const all = splitLines(item.content);
    const count = Math.min(lines, all.length);
    // `content[-lines:]`: Python's `-0` is 0, so `lines=0` gives the whole file.
    return { last_lines: (count === 0 ? all : all.slice(-count)).join('\n') };
  }

  diff(first: string, second: string): unknown {
    const one = this.#current.contents.get(first);
    const two = this.#current.contents.get(second);
    if (!(one instanceof File && two instanceof File))
      return { error: `diff: ${first} or ${second}: No such file or directory` };
    const left = splitLines(one.content);
    const right = splitLines(two.content);
    const lines: string[] = [];
    for (let index = 0; index < Math.min(left.length, right.length); index++) {
      if (left[index] !== right[index]) lines.push(`- ${left[index]}\n+ ${right[index]}`);
    }
    return { diff_lines: lines.join('\n') };
  }

  mv(source: string, destination: string): unknown {
    const item = this.#current.contents.get(source);
    if (item === undefined) return { error: `mv: cannot move '${source}': No such file or directory` };
    if (destination.includes('/'))
      return { error: 'mv: path not allowed in destination. Provide only a file or directory name.' };
    const target = this.#current.contents.get(destination);
    if (target !== undefined) {
      if (!(target instanceof Directory))
        return { error: `mv: cannot move '${source}' to '${destination}': Not a directory` };
      if (target.contents.has(source))
        return { error: `mv: cannot move '${source}' to '${destination}/${source}': File exists` };
      this.#current.contents.delete(source);
      place(target, source, item, 'share');
      return { result: `'${source}' moved to '${destination}/${source}'` };
    }
    this.#current.contents.delete(source);
    place(this.#current, destination, item, 'share');
    return { result: `'${source}' moved to '${destination}'` };
  }

  rm(name: string): unknown {
    if (!this.#current.contents.has(name))
      return { error: `rm: cannot remove '${name}': No such file or directory` };
    this.#current.contents.delete(name);
    return { result: `'${name}' removed` };
  }

  rmdir(name: string): unknown {
    const item = this.#current.contents.get(name);
    if (item === undefined) return { error: `rmdir: cannot remove '${name}': No such file or directory` };
    if (!(item instanceof Directory)) return { error: `rmdir: cannot remove '${name}': Not a directory` };
    if (item.contents.size > 0) return { error: `rmdir: cannot remove '${name}': Directory not empty` };
    this.#current.contents.delete(name);
    return { result: `'${name}' removed` };
  }

  cp(source: string, destination: string): unknown {
    const item = this.#current.contents.get(source);
    if (item === undefined) return { error: `cp: cannot copy '${source}': No such file or directory` };
    if (destination.includes('/'))
      return { error: 'cp: path not allowed in destination. Provide only a file or directory name.' };
    const target = this.#current.contents.get(destination);
    if (target !== undefined) {
      if (!(target instanceof Directory))
        return { error: `cp: cannot copy '${source}' to '${destination}': Not a directory` };
      // The Python class looks for `destination/source` among the target's names, which never holds:
      // a name taken there raises from `_add_file` instead.
      place(target, source, item, 'copy');
      return { result: `'${source}' copied to '${destination}/${source}'` };
    }
    place(this.#current, destination, item, 'copy');
    return { result: `'${source}' copied to '${destination}'` };
  }

  /** The method of `sort` and `grep`: a file of the current directory, or their error. */
  withFile(command: string, args: Args, use: (file: File) => unknown): unknown {
    const name = required<string>(args, 'file_name');
    const item = this.#current.contents.get(name);
    return item instanceof File ? use(item) : { error: `${command}: ${name}: No such file or directory` };
  }

  /** `_navigate_to_directory`: a directory from a path, one name at a time, or `cd`'s error. */
  #navigate(path: string): Directory | { error: unknown } {
    if (path === '.') return this.#current;
    if (path === '/') return this.#root;
    let dir = path.startsWith('/') ? this.#root : this.#current;
    for (const name of path.replace(/^\/+|\/+$/g, '').split('/')) {
      const next = dir.getItem(name);
      if (!(next instanceof Directory)) return { error: `cd: '${path}': No such file or directory` };
      dir = next;
    }
    return dir;
  }
}

/** `_load_directory`: the scenario's nodes into a directory. */
function load(nodes: Readonly<Record<string, Node>>, into: Directory): Directory {
  for (const [name, node] of Object.entries(nodes)) {
    switch (node.type) {
      case 'directory':
        into.contents.set(name, load(node.contents, new Directory(name, into)));
        break;
      case 'file':
        into.contents.set(name, new File(name, node.content));
        break;
      default: {
        const unknown: never = node;
        throw new TypeError(`unknown node ${JSON.stringify(unknown)}`);
      }
    }
  }
  return into;
}

/**
 * Puts an item under `name` in `into`, as `mv` and `cp` do: a file anew with its text, a directory anew
 * over its source's map (`share`, mv) or a shallow copy of it (`copy`, cp), its children unchanged.
 */
function place(into: Directory, name: string, item: File | Directory, how: 'share' | 'copy'): void {
  if (item instanceof File) {
    into.addFile(name, item.content);
    return;
  }
  into.addDirectory(name).contents = how === 'share' ? item.contents : new Map(item.contents);
}

/** `"\n".join(sorted(content.splitlines()))`: Python orders strings by code point. */
function sortLines(content: string): string {
  return splitLines(content)
    .sort((a, b) => {
      const left = [...a];
      const right = [...b];
      for (let index = 0; index < Math.min(left.length, right.length); index++) {
        const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0);
        if (difference !== 0) return difference;
      }
      return left.length - right.length;
    })
    .join('\n');
}
