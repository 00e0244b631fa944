from asuka.cli import app

app()
