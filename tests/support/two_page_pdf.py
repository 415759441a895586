import sys
# A two-page PDF with plain text (Helvetica), written by hand so a test needs no converter.
pages = [("Quarterly report", "Revenue rose by seven percent."), ("Second page", "Costs fell in March.")]
objs = []
def add(s): objs.append(s); return len(objs)
font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
kids = []
page_ids = []
for title, body in pages:
    stream = f"BT /F1 24 Tf 72 720 Td ({title}) Tj ET BT /F1 14 Tf 72 680 Td ({body}) Tj ET"
    c = add(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
    page_ids.append((c,))
pages_id = len(objs) + len(pages) + 1
pids = []
for (c,) in page_ids:
    pids.append(add(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 612 792] /Contents {c} 0 R /Resources << /Font << /F1 {font} 0 R >> >> >>"))
add(f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in pids)}] /Count {len(pids)} >>")
cat = add(f"<< /Type /Catalog /Pages {pages_id} 0 R >>")
out = b"%PDF-1.4\n"
offs = []
for i, o in enumerate(objs, 1):
    offs.append(len(out))
    out += f"{i} 0 obj\n{o}\nendobj\n".encode()
x = len(out)
out += f"xref\n0 {len(objs)+1}\n0000000000 65535 f \n".encode()
for o in offs: out += f"{o:010d} 00000 n \n".encode()
out += f"trailer\n<< /Size {len(objs)+1} /Root {cat} 0 R >>\nstartxref\n{x}\n%%EOF\n".encode()
open(sys.argv[1], "wb").write(out)
