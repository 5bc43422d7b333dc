"""Exports of the bank: an Anki deck (`anki`) and PDF books typeset by Typst (`pdf`).

Exporters sit above sessions: they read the bank, render each question once through
`view.view_question` (so an exported answer is the one the app shows), and write a file
atomically (`files`). Markdown, math and code become HTML for Anki and data for Typst in
`markdown`. `gpuprep export anki|pdf` (gpuprep.cli.export) is their command line.
"""
