-- Man pages read better as lists than as wide tables, and groff cannot fill the narrow
-- columns of an 80-column terminal without warnings. Each table row becomes a
-- definition-list entry: the first cell is the term, the others "header: text" paragraphs.
function Table(tbl)
  local headers = {}
  for i, cell in ipairs(tbl.head.rows[1].cells) do
    headers[i] = pandoc.utils.stringify(cell.contents)
  end
  local items = {}
  for _, body in ipairs(tbl.bodies) do
    for _, row in ipairs(body.body) do
      local paragraphs = {}
      for i = 2, #row.cells do
        local text = pandoc.utils.blocks_to_inlines(row.cells[i].contents)
        if #text > 0 then
          local line = {pandoc.Emph({pandoc.Str(headers[i] .. ":")}), pandoc.Space()}
          for _, inline in ipairs(text) do table.insert(line, inline) end
          table.insert(paragraphs, pandoc.Para(line))
        end
      end
      local term = pandoc.utils.blocks_to_inlines(row.cells[1].contents)
      table.insert(items, {term, {paragraphs}})
    end
  end
  return pandoc.DefinitionList(items)
end
