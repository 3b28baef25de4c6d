"""--hf-config ORG/NAME finds the model in a local Hugging Face cache laid out as huggingface_hub
writes it (HF_HUB_CACHE, else HF_HOME/hub; refs/main -> snapshots/HASH/config.json), and a
model folder works as well as its config.json; an id not in the cache is one line, exit 2,
naming the folder looked in."""
import os
import shutil
import tempfile

from harness import expect, finish, run

here = os.path.dirname(os.path.abspath(__file__))
config = os.path.join(here, "..", "data", "configs", "llama-3.1-8b.json")
home = tempfile.mkdtemp()
repo = os.path.join(home, "hub", "models--meta-llama--Llama-3.1-8B")
commit = "0e9e39f249a16976918f6564b8830bc894c89659"
os.makedirs(os.path.join(repo, "refs"))
os.makedirs(os.path.join(repo, "snapshots", commit))
with open(os.path.join(repo, "refs", "main"), "w") as f:
    f.write(commit)
shutil.copy(config, os.path.join(repo, "snapshots", commit, "config.json"))

env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
env["HF_HOME"] = home
direct = run("rope", "--hf-config", config, "--format", "json", text=True)
expect(direct.returncode == 0, f"rope --hf-config FILE exits 0 ({direct.stderr})")
by_id = run("rope", "--hf-config", "meta-llama/Llama-3.1-8B", "--format", "json", text=True, env=env)
expect(by_id.returncode == 0, f"rope --hf-config ORG/NAME exits 0 ({by_id.stderr})")
# The report names what was given (the id echoes as given, so the run replays) and the file read;
# apart from those both reports are the same.
snapshot_file = os.path.join(repo, "snapshots", commit, "config.json")
expect(by_id.stdout.replace(snapshot_file, "X").replace("meta-llama/Llama-3.1-8B", "X")
       == direct.stdout.replace(os.path.normpath(config), "X").replace(config, "X"),
       "the cached model gives the report of its config.json")
folder = run("rope", "--hf-config", os.path.join(repo, "snapshots", commit), "--format", "json", text=True)
expect(folder.returncode == 0 and '"inv_freq"' in folder.stdout, f"rope --hf-config FOLDER exits 0 ({folder.stderr})")
hub = dict(env, HF_HUB_CACHE=os.path.join(home, "hub"))
hub.pop("HF_HOME")
expect(run("rope", "--hf-config", "meta-llama/Llama-3.1-8B@main", text=True, env=hub).returncode == 0,
       "HF_HUB_CACHE and @main resolve too")
missing = run("rope", "--hf-config", "acme/none", text=True, env=env)
expect(missing.returncode == 2 and missing.stderr.count("\n") == 1 and "--hf-config 'acme/none'" in missing.stderr
       and os.path.join(home, "hub", "models--acme--none") in missing.stderr and "HF_HOME" in missing.stderr,
       f"an id not in the cache: one line naming where it looked ({missing.stderr!r})")
shutil.rmtree(home)
finish()
