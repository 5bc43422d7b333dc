"""The Typst source of every PDF book (kept in Python so that it ships with the package).

It reads one JSON document from `sys.inputs.data` (see `pdf.book_data`) and never evaluates
question text as markup: strings are placed as text, Markdown arrives as a tree of blocks and
inlines, math as Typst math written by `typst_math.latex_to_typst` (the only text `eval`ed, and
only in math mode), code as `raw`.
"""

SOURCE = r"""
#let data = json(bytes(sys.inputs.data))
#let book = data.book
#let grey = luma(95)
#let faint = luma(235)

#set document(title: "gpuprep: " + data.title, author: "gpuprep")
#set page(paper: "a4", margin: (x: 20mm, top: 20mm, bottom: 22mm),
  numbering: "1", number-align: center)
#set text(font: "Libertinus Serif", size: 10.5pt, lang: "en")
#set par(justify: false, leading: 0.6em, spacing: 0.95em)
#show raw: set text(font: "DejaVu Sans Mono", size: 8pt)
#show raw.where(block: false): box.with(fill: faint, inset: (x: 2pt), outset: (y: 2pt), radius: 2pt)
#show heading.where(level: 1): it => { pagebreak(weak: true); v(8mm); text(size: 20pt, it); v(3mm) }
#show heading.where(level: 2): set text(size: 13pt)
#show heading.where(level: 3): set text(size: 11pt)
#set heading(numbering: "1.")
#show link: underline

// --- Markdown trees ---------------------------------------------------------------------------

#let math-node(n, display) = {
  if n.math != none {
    math.equation(block: display, eval(n.math, mode: "math"))
  } else {
    raw(n.src, block: display)
  }
}

#let inl(nodes) = {
  for n in nodes {
    if type(n) == str { n }
    else if n.t == "b" { strong(inl(n.c)) }
    else if n.t == "i" { emph(inl(n.c)) }
    else if n.t == "s" { strike(inl(n.c)) }
    else if n.t == "code" { raw(n.text) }
    else if n.t == "m" { math-node(n, false) }
    else if n.t == "a" { if n.href.starts-with("http") { link(n.href, inl(n.c)) } else { inl(n.c) } }
    else if n.t == "br" { linebreak() }
  }
}

#let code(source, lang, size: 8pt) = block(
  width: 100%, fill: faint, inset: 6pt, radius: 3pt, breakable: true,
  { set text(size: size); raw(source, lang: if lang == "" { none } else { lang }, block: true) },
)

#let blocks(bs) = {
  for b in bs {
    if b.t == "p" { par(inl(b.c)) }
    else if b.t == "h" { block(above: 1em, below: 0.6em, strong(inl(b.c))) }
    else if b.t == "code" { code(b.text, b.lang) }
    else if b.t == "math" { math-node(b, true) }
    else if b.t == "ul" or b.t == "ol" {
      let items = b.items.map(it => {
        if it.len() == 1 and it.at(0).t == "p" { inl(it.at(0).c) } else { blocks(it) }
      })
      if b.t == "ul" { list(..items) } else { enum(start: b.start, ..items) }
    }
    else if b.t == "quote" { quote(block: true, blocks(b.c)) }
    else if b.t == "hr" { line(length: 100%, stroke: 0.5pt + grey) }
    else if b.t == "table" {
      let aligns = b.align.map(a => if a == "right" { right } else if a == "center" { center } else { left })
      let width = aligns.len()
      let pad(row) = row + ((),) * calc.max(0, width - row.len())
      table(
        columns: width, align: aligns, stroke: 0.4pt + grey, inset: 4pt,
        ..pad(b.head).map(c => strong(inl(c))),
        ..b.rows.map(r => pad(r).slice(0, width).map(c => inl(c))).flatten(),
      )
    }
  }
}

// An item of a list given as inlines, or as blocks when it holds more than a paragraph.
#let item(x) = {
  if x.len() == 1 and type(x.at(0)) == dictionary and x.at(0).t == "blocks" { blocks(x.at(0).c) }
  else { inl(x) }
}

// --- Pieces of a question ---------------------------------------------------------------------

#let meta(q) = {
  set text(size: 9pt, fill: grey)
  [#raw(q.id) · #q.kind · #q.level · #q.minutes min]
  if q.gpu != none { [ · #q.gpu] }
  if q.params.len() > 0 { [ · ] + q.params.join("; ") }
}

#let label-text(body) = block(above: 1em, below: 0.45em, sticky: true,
  text(size: 8.5pt, weight: "bold", fill: grey, upper(body)))

#let artifact(q) = {
  if q.artifact != none {
    v(2pt)
    label-text(q.artifact.label)
    code(q.artifact.text, q.artifact.lang, size: 7pt)
  }
}

#let hints(q) = {
  if q.hints.len() > 0 {
    block(above: 0.8em, {
      set text(size: 9.5pt)
      label-text("Hints")
      enum(tight: true, ..q.hints.map(item))
    })
  }
}

#let worked(q) = {
  if q.expected != none {
    par[*Expected:* #q.expected#if q.gpu != none [ on the #q.gpu]]
  }
  if q.worked.len() > 0 {
    label-text("Worked solution")
    block(width: 100%, fill: faint, inset: 6pt, radius: 3pt, breakable: true, {
      set text(font: "DejaVu Sans Mono", size: 7.5pt)
      set par(justify: false, leading: 0.45em, spacing: 0.7em)
      for line in q.worked { par(hanging-indent: 2em, line) }
    })
  }
}

#let answer(q) = { blocks(q.answer); worked(q) }

#let bullets(title, items) = {
  if items.len() > 0 {
    label-text(title)
    list(tight: true, ..items.map(item))
  }
}

#let rubric(q) = {
  bullets("Strong signals", q.rubric.strong)
  bullets("Red flags", q.rubric.red)
  bullets("Follow-ups", q.rubric.follow)
}

#let levels(q) = {
  let template = data.rubrics.at(q.template, default: none)
  if template != none {
    label-text("Scoring: " + template.title)
    table(
      columns: (22%, 1fr, 1fr, 1fr, 1fr), stroke: 0.4pt + grey, inset: 4pt,
      table.header(..([Dimension], [1], [2], [3], [4]).map(strong)),
      ..template.dimensions.map(d => (strong(d.name), ..d.levels.map(l => text(size: 8pt, l)))).flatten(),
    )
  }
}

#let box-mark = box(width: 8pt, height: 8pt, stroke: 0.6pt, baseline: 1pt)
#let blank(width) = box(width: width, stroke: (bottom: 0.5pt), height: 1em)
#let checklist(items) = grid(columns: (12pt, 1fr), row-gutter: 0.55em,
  ..items.map(s => (box-mark, item(s))).flatten())

#let scorecard(q) = {
  pagebreak(weak: true)
  text(size: 14pt, weight: "bold")[Scorecard: #q.title]
  linebreak()
  meta(q)
  v(4mm)
  grid(columns: (1fr, 1fr, 1fr), gutter: 6mm,
    [Candidate #blank(1fr)], [Interviewer #blank(1fr)], [Date #blank(1fr)])
  v(4mm)
  let template = data.rubrics.at(q.template, default: none)
  if template != none {
    table(
      columns: (30%, auto, auto, auto, auto, 1fr), stroke: 0.4pt + grey, inset: 6pt,
      align: (left, center, center, center, center, left),
      table.header(..([Dimension], [1], [2], [3], [4], [Notes]).map(strong)),
      ..template.dimensions.map(d => (d.name, box-mark, box-mark, box-mark, box-mark, [])).flatten(),
    )
  }
  v(3mm)
  grid(columns: (1fr, 1fr), gutter: 6mm,
    { label-text("Heard"); checklist(q.rubric.strong) },
    { label-text("Red flags seen"); checklist(q.rubric.red) },
  )
  if q.rubric.follow.len() > 0 {
    label-text("Follow-ups asked")
    checklist(q.rubric.follow)
  }
  v(4mm)
  [*Overall:* #h(4mm) #box-mark Strong no #h(4mm) #box-mark No #h(4mm) #box-mark Yes #h(4mm) #box-mark Strong yes]
  v(4mm)
  label-text("Notes")
  for _ in range(8) { v(7mm); line(length: 100%, stroke: 0.4pt + luma(180)) }
}

// --- Roofline charts ---------------------------------------------------------------------------

#let roofline(g, width: 7.4cm, height: 4.6cm) = {
  let colours = (rgb("#4e79a7"), rgb("#e15759"), rgb("#59a14f"), rgb("#b07aa1"))
  let lg(v) = calc.log(v, base: 10)
  let (x0, x1) = (lg(g.x.at(0)), lg(g.x.at(1)))
  let (y0, y1) = (lg(g.y.at(0)), lg(g.y.at(1)))
  let px(v) = (lg(v) - x0) / (x1 - x0) * width
  let py(v) = height - (lg(v) - y0) / (y1 - y0) * height
  box(width: width + 12mm, height: height + 10mm, inset: (left: 10mm, bottom: 8mm), {
    // Decades of the rate, octaves (every other) of the intensity.
    let y = calc.ceil(y0)
    while y <= y1 {
      place(top + left, line(start: (0pt, py(calc.pow(10, y))), end: (width, py(calc.pow(10, y))), stroke: 0.3pt + luma(210)))
      place(top + left, dx: -10mm, dy: py(calc.pow(10, y)) - 4pt,
        box(width: 9mm, align(right, text(size: 6pt, fill: grey, str(calc.pow(10, y))))))
      y += 1
    }
    let e = calc.ceil(calc.log(g.x.at(0), base: 2))
    while calc.pow(2.0, e) <= g.x.at(1) {
      let v = calc.pow(2.0, e)
      place(top + left, line(start: (px(v), 0pt), end: (px(v), height), stroke: 0.3pt + luma(225)))
      if calc.rem(calc.abs(e), 2) == 0 {
        let tick = if e < 0 { "1/" + str(int(calc.pow(2, -e))) } else { str(int(v)) }
        place(top + left, dx: px(v) - 6mm, dy: height + 1mm, box(width: 12mm, align(center, text(size: 6pt, fill: grey, tick))))
      }
      e += 1
    }
    place(top + left, rect(width: width, height: height, stroke: 0.5pt + grey))
    let top-ridge = calc.max(..g.roofs.map(r => r.ridge))
    // The memory roof, up to the highest ridge.
    place(top + left, line(start: (0pt, py(g.bandwidth * g.x.at(0))), end: (px(top-ridge), py(g.bandwidth * top-ridge)), stroke: 1pt + black))
    place(top + left, dx: 2pt, dy: py(g.bandwidth * g.x.at(0) * 4) - 12pt,
      rotate(0deg, text(size: 6.5pt, [HBM #g.bandwidth_text])))
    for (i, r) in g.roofs.enumerate() {
      let colour = colours.at(calc.rem(i, colours.len()))
      place(top + left, line(start: (px(r.ridge), py(r.peak)), end: (width, py(r.peak)), stroke: 1pt + colour))
      place(top + left, dx: px(r.ridge), dy: py(r.peak) - 1.5pt, circle(radius: 1.5pt, fill: colour, stroke: none))
      place(top + left, dx: width - 8mm, dy: py(r.peak) - 7.5pt,
        box(width: 7mm, align(right, text(size: 6pt, fill: colour, r.label))))
    }
    place(top + left, dx: width / 2 - 20mm, dy: height + 4.5mm, box(width: 40mm, align(center, text(size: 6.5pt, fill: grey, [FLOP per byte of HBM traffic]))))
    place(top + left, dx: -10mm, dy: -4mm, text(size: 6.5pt, fill: grey, [TFLOP/s]))
  })
  // The legend: each roof's peak and ridge point.
  block(above: 1mm, {
    set text(size: 6.5pt)
    grid(columns: (1fr, 1fr), row-gutter: 3pt, column-gutter: 3mm,
      ..g.roofs.enumerate().map(((i, r)) => {
        let colour = colours.at(calc.rem(i, colours.len()))
        [#box(width: 8pt, height: 2pt, fill: colour, baseline: -1.5pt) #r.label: #r.text, ridge #r.ridge_text]
      }))
  })
}

#let hardware-appendix() = {
  heading(level: 1, numbering: none)[Appendix: the hardware]
  [Datasheet figures from the bank's hardware tables (dense tensor rates; every figure's source is
  in `hardware/<gpu>.yaml` and `gpuprep hw show <gpu>`). Each chart is the GPU's roofline: the
  memory roof rises with arithmetic intensity until it meets a compute roof at that precision's
  ridge point; the legend gives each roof's peak and ridge point.]
  v(3mm)
  {
    set text(size: 7.5pt)
    table(
      columns: (auto, auto, auto, auto, auto, auto, auto, auto, auto), stroke: 0.4pt + grey, inset: 3pt,
      align: (left, left, right, right, right, right, right, right, right),
      table.header(..([GPU], [Memory], [Bandwidth], [fp32], [bf16 / fp16], [fp8], [Ridge bf16], [L2], [SMs]).map(strong)),
      ..data.hardware.map(g => (
        [#g.name], [#g.capacity #g.memory], g.bandwidth_text, g.fp32, g.half, g.fp8, g.ridge, g.l2, g.sms,
      )).flatten(),
    )
  }
  v(4mm)
  grid(columns: (1fr, 1fr), row-gutter: 6mm, column-gutter: 4mm,
    ..data.hardware.map(g => block(breakable: false, {
      text(size: 8.5pt, weight: "bold", g.name)
      v(1mm)
      roofline(g)
    })),
  )
}

// --- The books ----------------------------------------------------------------------------------

#let title-page() = {
  set page(numbering: none)
  v(45mm)
  text(size: 30pt, weight: "bold")[gpuprep]
  v(2mm)
  text(size: 20pt, data.title)
  v(6mm)
  text(size: 12pt, fill: grey, data.description)
  v(12mm)
  let chapters = data.chapters.len()
  text(size: 11pt)[#data.count #if data.count == 1 [question] else [questions] in #chapters #if chapters == 1 [topic] else [topics]]
  if data.gpu != none {
    linebreak()
    text(size: 11pt)[Estimation questions worked for the #data.gpu where they are asked for it.]
  }
  v(1fr)
  text(size: 9pt, fill: grey)[Made by #raw("gpuprep export pdf --book " + book) from the bank as of #data.date.]
  pagebreak()
}

#title-page()
#outline(depth: 1, title: [Contents])

#if book == "study" {
  for ch in data.chapters {
    heading(level: 1, ch.title)
    if ch.summary != "" { text(fill: grey, ch.summary) }
    for q in ch.questions {
      block(breakable: true, above: 1.6em, {
        heading(level: 2, numbering: none, q.title)
        meta(q)
        blocks(q.prompt)
        artifact(q)
        hints(q)
      })
    }
    v(6mm)
    heading(level: 2, numbering: none, outlined: false)[Answers: #ch.title]
    for q in ch.questions {
      block(above: 1.4em, {
        text(weight: "bold", q.title)
        h(4pt)
        text(size: 8.5pt, fill: grey, raw(q.id))
      })
      answer(q)
    }
  }
  hardware-appendix()
} else if book == "interviewer" {
  for ch in data.chapters {
    heading(level: 1, ch.title)
    for (i, q) in ch.questions.enumerate() {
      if i > 0 { pagebreak() }
      heading(level: 2, numbering: none, q.title)
      meta(q)
      label-text("Question")
      blocks(q.prompt)
      artifact(q)
      hints(q)
      label-text("Model answer")
      answer(q)
      rubric(q)
      levels(q)
      scorecard(q)
    }
  }
} else {
  for ch in data.chapters {
    heading(level: 1, ch.title)
    for q in ch.questions {
      block(above: 1.6em, {
        heading(level: 2, numbering: none, q.title)
        meta(q)
      })
      {
        set text(size: 9pt, fill: grey)
        blocks(q.prompt)
      }
      answer(q)
    }
  }
}
"""
