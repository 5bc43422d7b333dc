"""`python -m gpuprep` does what the `gpuprep` console script does."""

from gpuprep.cli.main import run

if __name__ == "__main__":
    run()
