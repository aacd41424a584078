#!/usr/bin/env python3
"""The CI set-ups of docs/ci.md, run as they are written there.

The GitHub workflow and the GitLab job are read from the page's YAML; every
step runs on a scratch repository (with `tensorlint` on PATH, and a stub of
`gh` that keeps the comment), but the installation, which needs the network
and root: of that, only that it updates the package lists before installing
is checked.  Four pull requests, each a base commit and a change:

  add     a new C file (no base report: everything new)
  change  the file gets a copy that raises the peak (peak-regression)
  delete  the file is removed (nothing to check, the job passes)
  error   a new file with an error of the program (the job fails, the
          comment is still written)

Each is checked for the job's outcome, the SARIF against the SARIF 2.1.0
schema with its baselineState, the comment (and that it names no temporary
path), and GitLab's code quality report against the fields GitLab reads.
The pre-commit examples run through Debian's pre-commit with their `args`
exactly as written (uncommented).

usage: recipes.py TENSORLINT SARIF_SCHEMA
"""
import json, os, re, shutil, subprocess, sys, tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)
    return cond


def yaml_blocks(section):
    """The ```yaml blocks of docs/ci.md under the heading that starts with section."""
    text = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()
    start = text.index("\n## " + section)
    end = text.find("\n## ", start + 1)
    body = text[start:end if end >= 0 else len(text)]
    return re.findall(r"```yaml\n(.*?)```", body, re.S)


def git(cwd, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
                           *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


SCENARIOS = {  # name: (base files, change: files written (None: deleted))
    "add": ({"src/model.c": "tests/baseline/clone.base.c"},
            {"src/extra.c": "tests/baseline/clone.head.c"}),
    "change": ({"src/model.c": "tests/baseline/clone.base.c"},
               {"src/model.c": "tests/baseline/clone.head.c"}),
    "delete": ({"src/model.c": "tests/baseline/clone.base.c", "README": None},
               {"src/model.c": None}),
    "error": ({"src/model.c": "tests/baseline/clone.base.c"},
              {"src/broken.c": "tests/checks/errors.c"}),
}


def write_files(repo, files):
    for path, src in files.items():
        full = os.path.join(repo, path)
        if src is None and path != "README":
            os.remove(full)
            continue
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if src is None:
            open(full, "w").write("a project\n")
        else:
            shutil.copy(os.path.join(ROOT, src), full)


def make_repo(work, scenario, where):
    """A repository (in work/where) with the base commit on main and the change on branch mr,
    and a bare origin holding both: the repository's path and the base's sha."""
    base_files, change = SCENARIOS[scenario]
    repo = os.path.join(work, where, "repo")
    os.makedirs(repo)
    git(repo, "init", "-q")
    write_files(repo, base_files)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-qb", "mr")
    write_files(repo, change)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "change")
    origin = os.path.join(work, where, "origin.git")
    git(work, "clone", "-q", "--bare", repo, origin)
    git(repo, "remote", "add", "origin", origin)
    return repo, base


def tool_env(tool, work, scenario):
    """PATH with tensorlint and a stub gh that keeps the comment's body."""
    bindir = os.path.join(work, scenario, "bin")
    os.makedirs(bindir)
    os.symlink(tool, os.path.join(bindir, "tensorlint"))
    gh = os.path.join(bindir, "gh")
    with open(gh, "w") as f:
        f.write('#!/bin/sh\n# gh pr comment N --body-file F\n'
                'while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "$GH_STUB_OUT"; shift; done\n')
    os.chmod(gh, 0o755)
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"],
               GH_STUB_OUT=os.path.join(work, scenario, "posted.md"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return env


def gh_condition(cond, failed, repo):
    """The `if:` expressions the page uses: always(), hashFiles('F') != '', joined by &&;
    no `if:` means success()."""
    if cond is None:
        return not failed
    ok = True
    for part in (p.strip() for p in cond.split("&&")):
        m = re.fullmatch(r"hashFiles\('([^']+)'\) != ''", part)
        if part == "always()":
            continue
        elif m:
            ok = ok and os.path.exists(os.path.join(repo, m.group(1)))
        else:
            raise SystemExit(f"recipes.py: an `if:` this runner does not know: {cond}")
    return ok


def install_ok(commands):
    """An installation step: the package lists are updated before anything is installed."""
    lines = [l for l in commands.splitlines() if "apt-get" in l]
    return bool(lines) and "apt-get update" in lines[0] and any("install" in l for l in lines[1:])


def run_github(tool, work, scenario, schema):
    flow = yaml.safe_load(yaml_blocks("GitHub Actions")[0])
    steps = flow["jobs"]["memory"]["steps"]
    repo, base = make_repo(work, scenario, "gh-" + scenario)
    env = tool_env(tool, work, "gh-" + scenario)
    temp = os.path.join(work, "gh-" + scenario, "runner-temp")
    os.makedirs(temp)
    env["RUNNER_TEMP"] = temp
    values = {"github.event.pull_request.base.sha": base, "github.event.pull_request.number": "7",
              "github.token": "token"}
    failed = False
    for step in steps:
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout"):
            continue
        if step.get("name") == "install tensorlint":
            check(install_ok(step["run"]), "github: the installation updates the package lists first")
            continue
        if not gh_condition(step.get("if"), failed, repo):
            continue
        if uses.startswith("github/codeql-action/upload-sarif"):
            sarif = os.path.join(repo, step["with"]["sarif_file"])
            check(validate_sarif(sarif, schema, scenario), f"github {scenario}: the SARIF uploaded")
            continue
        script = re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], step["run"])
        step_env = dict(env, **{k: re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], v)
                                for k, v in step.get("env", {}).items()})
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                           cwd=repo, env=step_env, capture_output=True, text=True)
        if r.returncode != 0:
            failed = True
            print(f"  github {scenario}: step '{step.get('name')}' exited {r.returncode}:"
                  f" {(r.stdout + r.stderr)[-400:]}")
    return failed, repo, os.path.join(work, "gh-" + scenario, "posted.md"), temp


def validate_sarif(path, schema_path, scenario):
    import jsonschema
    if not os.path.exists(path):
        return False
    log = json.load(open(path))
    jsonschema.validate(log, json.load(open(schema_path)))
    results = log["runs"][0]["results"]
    states = [r.get("baselineState") for r in results]
    if scenario == "change":  # the copy before the peak: new warnings beside unchanged ones
        return "new" in states and "unchanged" in states
    if scenario == "add":      # no base report: no baseline state, every result is new
        return results and all(s is None for s in states)
    return True


def run_gitlab(tool, work, scenario):
    job = yaml.safe_load(yaml_blocks("GitLab code quality")[0])["tensorlint"]
    check(install_ok("\n".join(job["before_script"])), "gitlab: the installation updates the package lists first")
    repo, _ = make_repo(work, scenario, "gl-" + scenario)
    env = tool_env(tool, work, "gl-" + scenario)
    env["CI_MERGE_REQUEST_TARGET_BRANCH_NAME"] = "main"
    script = "\n".join(job["script"])
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=repo,
                       env=env, capture_output=True, text=True)
    return r.returncode, repo, r.stdout + r.stderr


def gitlab_fields(path):
    issues = json.load(open(path))
    for i in issues:
        assert set(i) == {"description", "check_name", "fingerprint", "severity", "location"}, i
        assert i["severity"] in ("info", "minor", "major", "critical", "blocker"), i
        assert i["location"]["path"].startswith("src/") and isinstance(i["location"]["lines"]["begin"], int)
    assert len({i["fingerprint"] for i in issues}) == len(issues), "fingerprints not unique"
    return issues


def run_pre_commit(tool, work):
    if not shutil.which("pre-commit"):
        print("pre-commit is not installed: its examples not run")
        return
    block = yaml_blocks("pre-commit")[-1]
    examples = re.findall(r"^\s*# (args: .*?)(?:\s+#.*)?$", block, re.M)
    check(examples, "pre-commit: the page has args examples")
    hooks = os.path.join(work, "hooks")
    os.makedirs(hooks)
    shutil.copy(os.path.join(ROOT, ".pre-commit-hooks.yaml"), hooks)
    git(hooks, "init", "-q")
    git(hooks, "add", ".")
    git(hooks, "commit", "-qm", "hooks")
    rev = git(hooks, "rev-parse", "HEAD")
    project = os.path.join(work, "project")
    os.makedirs(project)
    git(project, "init", "-q")
    shutil.copy(os.path.join(ROOT, "tests/checks/hidden_copy.c"), os.path.join(project, "copies.c"))
    env = tool_env(tool, work, "pre-commit")
    env.update(PRE_COMMIT_HOME=os.path.join(work, "pc-cache"), HOME=work)
    for example in examples:
        args = yaml.safe_load(example)["args"]
        config = {"repos": [{"repo": hooks, "rev": rev, "hooks": [{"id": "tensorlint-check", "args": args}]}]}
        open(os.path.join(project, ".pre-commit-config.yaml"), "w").write(yaml.safe_dump(config))
        if "-p" in args:  # the database the example names
            build = os.path.join(project, args[args.index("-p") + 1])
            os.makedirs(build, exist_ok=True)
            json.dump([{"directory": project, "file": "copies.c", "command": "cc -c copies.c"}],
                      open(os.path.join(build, "compile_commands.json"), "w"))
        git(project, "add", "-A")
        r = subprocess.run(["pre-commit", "run", "tensorlint-check", "--files", "copies.c"],
                           cwd=project, env=env, capture_output=True, text=True)
        out = r.stdout + r.stderr
        check("invalid option" not in out and "unknown option" not in out and "usage:" not in out,
              f"pre-commit {example}: tensorlint took the arguments as written:\n{out[-600:]}")
        if "--warnings-as-errors=hidden-copy" in args:
            check(r.returncode == 1 and "[hidden-copy,-warnings-as-errors]" in out,
                  f"pre-commit {example}: the warning promoted to an error fails the hook:\n{out[-600:]}")
        else:
            check(r.returncode == 0 and "[hidden-copy]" in out,
                  f"pre-commit {example}: warnings printed, the hook passes:\n{out[-600:]}")


def main():
    tool, schema = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = tempfile.mkdtemp(prefix="tl-ci-")
    try:
        want_failed = {"add": False, "change": False, "delete": False, "error": True}
        for scenario, should_fail in want_failed.items():
            failed, repo, posted, temp = run_github(tool, work, scenario, schema)
            check(failed == should_fail, f"github {scenario}: the job {'fails' if should_fail else 'passes'}")
            comment = open(posted).read() if os.path.exists(posted) else None
            if scenario == "delete":
                check(comment is None, "github delete: no comment without a changed C file")
                continue
            check(comment is not None, f"github {scenario}: the comment is posted")
            comment = comment or ""
            check(temp not in comment and "/tmp" not in comment,
                  f"github {scenario}: the comment names no temporary path")
            if scenario == "change":
                check("▲ +4 MiB (was 12 MiB)" in comment, "github change: the peak's growth in the comment")
            if scenario == "add":
                check("`src/extra.c`" in comment and "was" not in comment,
                      "github add: the new file's report, with nothing to compare")
            if scenario == "error":
                check("error" in comment and "shape-mismatch" in comment,
                      "github error: the error in the comment")
        for scenario, should_fail in want_failed.items():
            rc, repo, out = run_gitlab(tool, work, scenario)
            check((rc != 0) == should_fail, f"gitlab {scenario}: the job {'fails' if should_fail else 'passes'} "
                                            f"(exit {rc}):\n{out[-600:]}")
            report = os.path.join(repo, "gl-code-quality-report.json")
            if scenario == "delete":
                check("no C file changed" in out, "gitlab delete: nothing to check")
                continue
            try:
                issues = gitlab_fields(report)
                check(bool(issues), f"gitlab {scenario}: the code quality report has the issues")
            except (AssertionError, OSError, ValueError) as e:
                check(False, f"gitlab {scenario}: the code quality report: {e}")
            if scenario == "change":
                check("new, 1 unchanged (not shown)" in out, "gitlab change: only the new diagnostics in the log")
        run_pre_commit(tool, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"CI recipes: {'0 failed' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
